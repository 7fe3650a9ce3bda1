import type { CallOptions } from '@pinfold/interface'
import { invalid, PinfoldError, throwIfAborted } from '@pinfold/interface'
import type { UnixFS } from 'ipfs-unixfs'
import { exporter, type UnixFSEntry } from 'ipfs-unixfs-exporter'
import type { CID } from 'multiformats/cid'
import { type Pack, pack as tarPack } from 'tar-stream'
import { isIdentity, RAW_CODE } from '../content/dag/blocks.js'
import type { GatewayEntry, GatewayOperations, GatewayRoot, GatewayTar } from './api.js'
import { readUnixfsFile } from './file-reader.js'
import { type WorkBudget, workBudget } from './work-budget.js'

/** One archive member, its name already checked to stay inside the archive's root. */
type TarItem =
  | { type: 'directory'; name: string; meta: Meta }
  | { type: 'symlink'; name: string; target: string; meta: Meta }
  | { type: 'file'; name: string; size: number; meta: Meta; content: () => Promise<AsyncIterable<Uint8Array>> }

interface Meta {
  mode?: number | undefined
  mtime: Date
}

/** Deeper than any honest directory tree; bounds the walk's recursion. */
const MAX_DEPTH = 256

/**
 * `?format=tar`: the UnixFS entry at `path` (a file, a symlink or a directory and everything
 * below it) as a tar stream named `{cid}/…`. Every name is checked before the first byte: a link
 * name whose `..` segments would lead outside the archive's root (`../foo`) is `INVALID_INPUT`,
 * one that stays inside (`a/../b`) is archived under its normalised name. Only the directory
 * nodes are read twice (once to check the names); file bytes are read once, as the stream is
 * consumed.
 */
export async function tarArchive(
  gateway: Pick<GatewayOperations, 'entry'>,
  root: GatewayRoot,
  path: readonly string[],
  options?: CallOptions,
): Promise<GatewayTar> {
  const entry = await gateway.entry(root, path, options)
  const budget = workBudget(root.dag?.content ?? null)
  const store = budgetedStore(root, budget, options)
  const top = entry.cid.toString()
  let items: AsyncGenerator<TarItem>
  if (entry.type === 'file' && entry.cid.code === RAW_CODE) {
    items = single({ type: 'file', name: top, size: entry.size, meta: EPOCH, content: () => readWhole(entry, options) })
  } else {
    const node = await exportNode(entry.cid, store, options)
    if (node.type === 'directory') await checkNames(node, [], store, 0, options)
    items = members(node, top, [], store, budget, options)
  }
  return { terminal: entry.cid, roots: entry.roots, stream: encodeTar(items) }
}

const EPOCH: Meta = { mtime: new Date(0) }

async function* single(item: TarItem): AsyncGenerator<TarItem> {
  yield item
}

async function readWhole(entry: Extract<GatewayEntry, { type: 'file' }>, options?: CallOptions) {
  return entry.read(undefined, options)
}

type Store = ReturnType<typeof budgetedStore>

/** The root's blocks for the UnixFS exporter, each read charged to the request's budget. */
function budgetedStore(root: GatewayRoot, budget: WorkBudget, options?: CallOptions) {
  const get = async (cid: CID) => {
    if (isIdentity(cid)) return cid.multihash.digest
    const bytes = await budget.read(async () => root.dag?.getBlock(cid, options))
    if (!bytes) throw new PinfoldError('INTERNAL', `block ${cid} is missing`)
    return bytes
  }
  return {
    get,
    blockstore: {
      async *get(cid: CID) {
        yield await get(cid)
      },
    },
  }
}

async function exportNode(cid: CID, store: Store, options?: CallOptions): Promise<UnixFSEntry> {
  try {
    return await exporter(cid, store.blockstore, { signal: options?.signal })
  } catch (cause) {
    throw new PinfoldError('UNPROCESSABLE', `block ${cid} cannot be read as UnixFS`, { cause })
  }
}

/**
 * `parent` (segments below the root) joined with a link `name`, `.` and `..` resolved: a name
 * whose `..` leads to the root or above it is `INVALID_INPUT` (the suite's outside-root fixture).
 */
function childPath(parent: readonly string[], name: string): string[] {
  const joined = [...parent]
  let escaped = false
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment !== '..') joined.push(segment)
    else if (joined.pop() === undefined) escaped = true
  }
  if (escaped || joined.length === 0) {
    throw invalid(`the link name ${JSON.stringify(name)} leads outside the archive's root`)
  }
  return joined
}

/** The names-only pass: every directory below `node`, no file bytes. */
async function checkNames(
  node: Extract<UnixFSEntry, { type: 'directory' }>,
  at: readonly string[],
  store: Store,
  depth: number,
  options?: CallOptions,
): Promise<void> {
  if (depth > MAX_DEPTH) throw new PinfoldError('UNPROCESSABLE', 'this directory tree is nested too deeply')
  for await (const child of node.entries({ signal: options?.signal })) {
    throwIfAborted(options?.signal)
    const path = childPath(at, child.name)
    if (child.cid.code === RAW_CODE || isIdentity(child.cid)) continue // a file: no names below it
    const exported = await exportNode(child.cid, store, options)
    if (exported.type === 'directory') await checkNames(exported, path, store, depth + 1, options)
  }
}

/** The members below (and including) `node`, depth-first in link order. */
async function* members(
  node: UnixFSEntry,
  top: string,
  at: readonly string[],
  store: Store,
  budget: WorkBudget,
  options?: CallOptions,
  depth = 0,
): AsyncGenerator<TarItem> {
  if (depth > MAX_DEPTH) throw new PinfoldError('UNPROCESSABLE', 'this directory tree is nested too deeply')
  const name = [top, ...at].join('/')
  const unixfs = 'unixfs' in node ? (node.unixfs as UnixFS) : undefined
  const meta = metaOf(unixfs)
  if (node.type === 'directory') {
    yield { type: 'directory', name, meta }
    for await (const child of node.entries({ signal: options?.signal })) {
      const path = childPath(at, child.name)
      yield* members(await exportNode(child.cid, store, options), top, path, store, budget, options, depth + 1)
    }
    return
  }
  if (unixfs?.type === 'symlink') {
    yield { type: 'symlink', name, target: new TextDecoder().decode(unixfs.data ?? new Uint8Array(0)), meta }
    return
  }
  if (node.type === 'file' || node.type === 'raw' || node.type === 'identity') {
    const cid = node.cid
    const size = Number(node.size)
    const content = async () => readUnixfsFile(cid, store.get, undefined, budget, options)
    yield { type: 'file', name, size, meta, content }
    return
  }
  throw new PinfoldError('UNPROCESSABLE', `cannot archive a ${node.type} entry`)
}

function metaOf(unixfs: UnixFS | undefined): Meta {
  const seconds = unixfs?.mtime?.secs
  return {
    mode: unixfs?.mode === undefined ? undefined : unixfs.mode & 0o7777,
    mtime: seconds === undefined ? EPOCH.mtime : new Date(Number(seconds) * 1000),
  }
}

/**
 * The members as tar bytes through tar-stream's packer: one member at a time, each file's bytes
 * written as they are read and only as fast as the consumer takes the archive (backpressure), so
 * memory holds a chunk or two whatever the archive's size.
 */
async function* encodeTar(items: AsyncGenerator<TarItem>): AsyncGenerator<Uint8Array> {
  const archive = tarPack()
  const filling = fill(archive, items)
  try {
    for await (const chunk of archive as AsyncIterable<Uint8Array>) yield chunk
    await filling
  } finally {
    archive.destroy()
    await filling
  }
}

async function fill(archive: Pack, items: AsyncGenerator<TarItem>): Promise<void> {
  try {
    for await (const item of items) await addMember(archive, item)
    archive.finalize()
  } catch (error) {
    archive.destroy(error as Error)
  }
}

async function addMember(archive: Pack, item: TarItem): Promise<void> {
  const common = { name: item.name, mtime: item.meta.mtime }
  if (item.type === 'directory') {
    return added((done) => archive.entry({ ...common, type: 'directory', mode: item.meta.mode ?? 0o755 }, done))
  }
  if (item.type === 'symlink') {
    return added((done) =>
      archive.entry({ ...common, type: 'symlink', linkname: item.target, mode: item.meta.mode ?? 0o777 }, done),
    )
  }
  let sink: ReturnType<Pack['entry']> | undefined
  const finished = added((done) => {
    sink = archive.entry({ ...common, type: 'file', size: item.size, mode: item.meta.mode ?? 0o644 }, done)
  })
  finished.catch(() => undefined) // awaited below; a failure while writing must not go unhandled meanwhile
  const writer = sink!
  for await (const chunk of await item.content()) {
    if (!writer.write(chunk)) await drained(writer)
  }
  // streamx's end(): its typings borrow node's Writable, whose overloads do not fit a bare call
  ;(writer as unknown as { end(): void }).end()
  return finished
}

function added(start: (done: (error?: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => start((error) => (error ? reject(error) : resolve())))
}

/** Resolves when `sink` takes more bytes; rejects when it closes first (the archive was destroyed). */
function drained(sink: ReturnType<Pack['entry']>): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => settle(resolve)
    const onClose = () => settle(() => reject(new PinfoldError('ABORTED', 'the archive was closed')))
    const settle = (then: () => void) => {
      sink.off('drain', onDrain)
      sink.off('close', onClose)
      then()
    }
    sink.on('drain', onDrain)
    sink.on('close', onClose)
  })
}
