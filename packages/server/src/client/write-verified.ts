import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { lstat, mkdir, rename, rm, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { CarWriter } from '@ipld/car/writer'
import { exporter, type UnixFSEntry } from 'ipfs-unixfs-exporter'
import type { CID } from 'multiformats/cid'
import { type Pack, pack as tarPack } from 'tar-stream'
import { CliError } from './cli-error.js'
import type { VerifiedBlocks } from './verified-car.js'

/** How `get` writes what it received: the content itself (a file, or a folder as a tree), a TAR or a CAR. */
export type GetFormat = 'content' | 'tar' | 'car'

export interface Written {
  type: 'file' | 'directory'
  /** Files written (in the tree or the archive). */
  files: number
  /** Bytes written to the output. */
  bytes: number
}

/** Deeper than any honest folder; bounds the walk's recursion. */
const MAX_DEPTH = 256

/** Whether `path` exists (a dangling symbolic link counts: writing there would follow it). */
export async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  )
}

/** The entry at the root of the received DAG: a file or a directory. */
export async function rootEntry(blocks: VerifiedBlocks): Promise<UnixFSEntry> {
  return exportEntry(blocks.root, blocks)
}

/**
 * Writes to `path` through a temporary sibling renamed into place once everything is written, so
 * an interrupted or refused `get` leaves no half-written output, and `--force` replaces the old
 * output only then.
 */
export async function writeToPath(
  blocks: VerifiedBlocks,
  format: GetFormat,
  path: string,
  force: boolean,
): Promise<Written> {
  const partial = `${path}.pinfold-partial`
  await rm(partial, { recursive: true, force: true })
  try {
    const root = await rootEntry(blocks)
    let written: Written
    if (format === 'content' && root.type === 'directory') {
      const tally = { files: 0, bytes: 0 }
      await writeTree(root, partial, blocks, tally, 0)
      written = { type: 'directory', ...tally }
    } else {
      const out = createWriteStream(partial, { flags: 'wx' })
      written = await writeStream(blocks, root, format, out)
      out.end()
      await once(out, 'close')
    }
    if (await exists(path)) {
      if (!force) throw new CliError(`${path} appeared while downloading: pass --force to replace it`)
      await rm(path, { recursive: true, force: true })
    }
    await rename(partial, path)
    return written
  } catch (error) {
    await rm(partial, { recursive: true, force: true })
    throw error
  }
}

/** A file's bytes, or a TAR or CAR of anything, onto a stream (stdout, or the temporary file). */
export async function writeStream(
  blocks: VerifiedBlocks,
  root: UnixFSEntry,
  format: GetFormat,
  out: Writable,
): Promise<Written> {
  const type = root.type === 'directory' ? 'directory' : 'file'
  const counter = { files: 0, bytes: 0 }
  const put = async (chunk: Uint8Array) => {
    counter.bytes += chunk.byteLength
    if (!out.write(chunk)) await once(out, 'drain')
  }
  if (format === 'car') {
    // every block is already checked; walking the DAG first checks none is missing
    await walk(root, '', blocks, 0, async (item) => {
      if (item.kind === 'file') {
        counter.files++
        for await (const _ of item.entry.content()) {
          // read, not kept: only whether every block is there matters
        }
      }
    })
    const { writer, out: car } = CarWriter.create([blocks.root])
    const feeding = (async () => {
      for (const cid of blocks.order) await writer.put({ cid, bytes: await blocks.read(cid) })
      await writer.close()
    })()
    for await (const chunk of car) await put(chunk)
    await feeding
    return { type, files: counter.files, bytes: counter.bytes }
  }
  if (format === 'tar') {
    const archive = tarPack()
    const filling = (async () => {
      try {
        await walk(root, blocks.root.toString(), blocks, 0, (item) => addMember(archive, item, counter))
        archive.finalize()
      } catch (error) {
        archive.destroy(error as Error)
      }
    })()
    let bytes = 0
    for await (const chunk of archive as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength
      if (!out.write(chunk)) await once(out, 'drain')
    }
    await filling
    return { type, files: counter.files, bytes }
  }
  if (root.type !== 'file' && root.type !== 'raw' && root.type !== 'identity') {
    throw new CliError(`${blocks.root} is a folder: give -o DIR to write its tree, or --archive tar|car for stdout`, 2)
  }
  for await (const chunk of root.content()) await put(chunk)
  return { type, files: 1, bytes: counter.bytes }
}

type Item =
  | { kind: 'directory'; path: string; entry: Extract<UnixFSEntry, { type: 'directory' }> }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'file'; path: string; entry: Extract<UnixFSEntry, { type: 'file' | 'raw' | 'identity' }> }

/** The entries below (and including) `entry`, depth-first in link order, names checked. */
async function walk(
  entry: UnixFSEntry,
  path: string,
  blocks: VerifiedBlocks,
  depth: number,
  visit: (item: Item) => Promise<void>,
): Promise<void> {
  if (depth > MAX_DEPTH) throw new CliError('this folder is nested too deeply to write')
  if (entry.type === 'directory') {
    await visit({ kind: 'directory', path, entry })
    for await (const child of entry.entries()) {
      const name = safeName(child.name)
      await walk(await exportEntry(child.cid, blocks), path ? `${path}/${name}` : name, blocks, depth + 1, visit)
    }
    return
  }
  if (entry.type === 'file' && entry.unixfs.type === 'symlink') {
    await visit({ kind: 'symlink', path, target: new TextDecoder().decode(entry.unixfs.data ?? new Uint8Array()) })
    return
  }
  if (entry.type === 'file' || entry.type === 'raw' || entry.type === 'identity') {
    await visit({ kind: 'file', path, entry })
    return
  }
  throw new CliError(`${entry.cid} is a ${entry.type} node, not UnixFS content pinfold can write`)
}

/** A link name that is one path segment: anything else could write outside the output. */
function safeName(name: string): string {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) {
    throw new CliError(`the folder holds an entry named ${JSON.stringify(name)}, which is not a safe file name`)
  }
  return name
}

async function exportEntry(cid: CID, blocks: VerifiedBlocks): Promise<UnixFSEntry> {
  try {
    return await exporter(cid, blocks.blockstore)
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(`block ${cid} cannot be read as UnixFS: ${(error as Error).message}`)
  }
}

async function writeTree(
  root: UnixFSEntry,
  dir: string,
  blocks: VerifiedBlocks,
  tally: { files: number; bytes: number },
  depth: number,
): Promise<void> {
  await walk(root, '', blocks, depth, async (item) => {
    const target = item.path ? join(dir, item.path) : dir
    if (item.kind === 'directory') await mkdir(target)
    else if (item.kind === 'symlink') await symlink(item.target, target)
    else {
      const out = createWriteStream(target, { flags: 'wx' })
      await pipeline(
        item.entry.content(),
        async function* count(source: AsyncIterable<Uint8Array>) {
          for await (const chunk of source) {
            tally.bytes += chunk.byteLength
            yield chunk
          }
        },
        out,
      )
      tally.files++
    }
  })
}

async function addMember(archive: Pack, item: Item, counter: { files: number }): Promise<void> {
  if (item.kind === 'directory') {
    return added((done) => archive.entry({ name: item.path, type: 'directory', mode: 0o755 }, done))
  }
  if (item.kind === 'symlink') {
    return added((done) => archive.entry({ name: item.path, type: 'symlink', linkname: item.target }, done))
  }
  counter.files++
  let sink: ReturnType<Pack['entry']> | undefined
  const finished = added((done) => {
    sink = archive.entry({ name: item.path, type: 'file', size: Number(item.entry.size), mode: 0o644 }, done)
  })
  finished.catch(() => undefined) // awaited below; a failure meanwhile must not go unhandled
  const writer = sink!
  for await (const chunk of item.entry.content()) {
    if (!writer.write(chunk)) await once(writer as unknown as NodeJS.EventEmitter, 'drain')
  }
  // streamx's end(): its typings borrow node's Writable, whose overloads do not fit a bare call
  ;(writer as unknown as { end(): void }).end()
  return finished
}

function added(start: (done: (error?: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => start((error) => (error ? reject(error) : resolve())))
}
