import { randomUUID } from 'node:crypto'
import { type FileHandle, mkdir, open, opendir, rm, stat, unlink } from 'node:fs/promises'
import path from 'node:path'
import {
  abortable,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type CallOptions,
  PinfoldError,
  type StagedBlobWrites,
  throwIfAborted,
} from '@pinfold/interface'
import { type AppendWriter, appendWriter } from './append-writer.js'
import { blobSegments, isKeyDirectory, keyFromSegments } from './blob-paths.js'
import { backgroundFlusher, moveIntoPlace, PRIVATE_DIR, PRIVATE_FILE } from './durable-files.js'
import { errnoOf, fsError, fsStep } from './fs-errors.js'
import { type FsBlobStoreOptions, resolveFsOptions } from './options.js'
import { fsStagedWrites, STAGING_DIR } from './staged-writes.js'

export interface FsBlobStore extends BlobStore {
  /** The absolute directory this store owns. */
  readonly directory: string
  /** Every key under a prefix. A full scan: keys are sharded by hash, so a prefix narrows nothing. */
  list(options?: CallOptions & { prefix?: string | undefined }): AsyncIterable<BlobInfo>
  /**
   * Removes temp files left by crashed writes: those untouched for `olderThanMs` (default: the
   * store's `staleTempMs`) that no write of this store is using. Resolves with how many it removed.
   */
  sweepTemp(options?: { olderThanMs?: number | undefined }): Promise<number>
  /**
   * Removes staging files (`.staged/`) untouched for `olderThanMs` (default: the store's
   * `staleStagedMs`): those of resumable uploads whose session was never recorded. Resolves with
   * how many it removed.
   */
  sweepStaged(options?: { olderThanMs?: number | undefined }): Promise<number>
  /** The absolute path of the file that holds `key` (for probes and operators). */
  pathOf(key: string): string
  staged: StagedBlobWrites
}

/**
 * Blobs as files: `<directory>/blobs/<shard>/<encoded key>` (see `blob-paths.ts`).
 *
 * A write streams into `<directory>/.tmp/<uuid>`, fsyncs it, renames it into place and fsyncs the
 * directories whose entries changed, so readers see the old blob or the complete new one and a
 * crash cannot leave a torn file under a key. One process should own the directory.
 */
export function createFsBlobStore(options: FsBlobStoreOptions): FsBlobStore {
  const { directory, staleTempMs, staleStagedMs } = resolveFsOptions(options)
  const blobsDir = path.join(directory, 'blobs')
  const tempDir = path.join(directory, '.tmp')
  const stagingDir = path.join(directory, STAGING_DIR)
  /** Temp files of writes in progress, which a sweep must leave alone. */
  const writing = new Set<string>()

  let prepared: Promise<void> | undefined
  /** Creates the directories and sweeps crash leftovers once; a failure is retried by the next call. */
  function prepare(): Promise<void> {
    prepared ??= (async () => {
      await fsStep('creating the blob directories', async () => {
        await mkdir(blobsDir, { recursive: true, mode: PRIVATE_DIR })
        await mkdir(tempDir, { recursive: true, mode: PRIVATE_DIR })
      })
      await sweepTemp({ olderThanMs: staleTempMs })
      await sweepStaged({ olderThanMs: staleStagedMs })
    })().catch((err) => {
      prepared = undefined
      throw err
    })
    return prepared
  }

  const pathOf = (key: string) => path.join(blobsDir, ...blobSegments(key))

  function sweepTemp(sweep?: { olderThanMs?: number | undefined }): Promise<number> {
    return removeUntouched(tempDir, sweep?.olderThanMs ?? staleTempMs)
  }

  function sweepStaged(sweep?: { olderThanMs?: number | undefined }): Promise<number> {
    return removeUntouched(stagingDir, sweep?.olderThanMs ?? staleStagedMs)
  }

  /** Removes the files of `dir` not modified for `olderThanMs`, except temp files a write of this store is using. */
  async function removeUntouched(dir: string, olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs
    let removed = 0
    for await (const name of namesIn(dir)) {
      const file = path.join(dir, name)
      if (writing.has(file)) continue
      const info = await unlessMissing('inspecting a leftover file', () => stat(file))
      if (!info || info.mtimeMs > cutoff) continue
      await fsStep('removing a leftover file', () => rm(file, { recursive: true, force: true }))
      removed++
    }
    return removed
  }

  return {
    directory,
    pathOf,
    sweepTemp,
    sweepStaged,
    staged: fsStagedWrites(directory, pathOf),

    async put(key, source, callOptions) {
      const signal = callOptions?.signal
      const target = pathOf(key)
      throwIfAborted(signal)
      await prepare()
      const temp = path.join(tempDir, randomUUID())
      writing.add(temp)
      let unclosed: FileHandle | undefined
      let writer: AppendWriter | undefined
      try {
        const handle = await fsStep('creating a temp file', () => open(temp, 'wx', PRIVATE_FILE))
        unclosed = handle
        let size = 0
        const flusher = backgroundFlusher(handle)
        writer = appendWriter(handle, (bytes) => flusher.wrote(bytes))
        for await (const chunk of abortable(source, signal)) {
          await fsStep('writing a temp file', () => writer!.write(chunk))
          size += chunk.length
        }
        await fsStep('writing a temp file', () => writer!.finish())
        await fsStep('flushing a temp file', () => flusher.finish())
        unclosed = undefined
        await fsStep('closing a temp file', () => handle.close())
        // Last chance to honour an abort: once renamed, the blob is committed.
        throwIfAborted(signal)
        await fsStep(`storing ${key}`, () => moveIntoPlace(temp, target))
        return { size }
      } catch (err) {
        // Best-effort cleanup: the write has failed either way, and the error the caller needs is
        // `err`. A temp file that survives this is removed by a later sweep.
        await writer?.finish().catch(() => {})
        await unclosed?.close().catch(() => {})
        await rm(temp, { force: true }).catch(() => {})
        throw err
      } finally {
        writing.delete(temp)
      }
    },

    async get(key, callOptions) {
      const signal = callOptions?.signal
      const file = pathOf(key)
      throwIfAborted(signal)
      const handle = await open(file, 'r').catch((err) => {
        throw isMissing(err) ? notFound(key, err) : fsError(err, `opening ${key}`)
      })
      let range: { start: number; end: number }
      try {
        // fstat of the open file, not stat of the path: a concurrent overwrite renames a new file
        // into place, and the size must be that of the bytes this handle will read.
        const { size } = await fsStep(`reading ${key}`, () => handle.stat())
        range = resolveRange(callOptions?.range, size, key)
      } catch (err) {
        await handle.close().catch(() => {})
        throw err
      }
      if (range.end > range.start) return readRange(handle, range.start, range.end, key, signal)
      await fsStep(`closing ${key}`, () => handle.close())
      return nothing()
    },

    async head(key, callOptions) {
      throwIfAborted(callOptions?.signal)
      const info = await unlessMissing(`inspecting ${key}`, () => stat(pathOf(key)))
      return info ? { key, size: info.size } : undefined
    },

    async delete(key, callOptions) {
      throwIfAborted(callOptions?.signal)
      // Directories are left in place: removing them would race with a concurrent put into them.
      await unlessMissing(`deleting ${key}`, () => unlink(pathOf(key)))
    },

    async *list(listOptions) {
      const prefix = listOptions?.prefix ?? ''
      for await (const shard of namesIn(blobsDir)) {
        yield* walk([shard], prefix, listOptions?.signal)
      }
    },
  }

  async function* walk(segments: string[], prefix: string, signal: AbortSignal | undefined): AsyncGenerator<BlobInfo> {
    const dir = path.join(blobsDir, ...segments)
    for await (const name of namesIn(dir)) {
      throwIfAborted(signal)
      const child = [...segments, name]
      if (isKeyDirectory(name)) {
        yield* walk(child, prefix, signal)
        continue
      }
      const key = keyFromSegments(child)
      if (key === undefined || !key.startsWith(prefix)) continue
      const info = await unlessMissing(`inspecting ${key}`, () => stat(path.join(dir, name)))
      if (info?.isFile()) yield { key, size: info.size }
    }
  }
}

/** `[start, end)` of a range request against a blob of `size` bytes. */
function resolveRange(range: ByteRange | undefined, size: number, key: string): { start: number; end: number } {
  const start = range?.offset ?? 0
  if (!Number.isSafeInteger(start) || start < 0) throw invalidRange(key)
  if (range?.length !== undefined && (!Number.isSafeInteger(range.length) || range.length < 0)) throw invalidRange(key)
  if (start > size) throw new PinfoldError('RANGE_NOT_SATISFIABLE', `range starts past the end of ${key}`)
  const end = range?.length === undefined ? size : Math.min(size, start + range.length)
  return { start, end }
}

/**
 * Bytes per read of a blob. Every chunk crosses several async hops on its way to a client (this
 * generator, the gateway's web stream, the node:http bridge), so Node's default 64 KiB halves
 * download throughput; 128 KiB brought 64 concurrent 100 MiB downloads from 0.62–0.64 to 0.91–0.98
 * of a bare `fs.createReadStream` server, for 8 MiB more buffers across them (bench/downloads.ts).
 */
export const READ_CHUNK_BYTES = 128 * 1024

/** Streams `[start, end)` of an open file, reading only those bytes, and closes it when done. */
async function* readRange(
  handle: FileHandle,
  start: number,
  end: number,
  key: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  // `end` of createReadStream is inclusive; the stream closes the handle when it ends or is destroyed.
  const stream = handle.createReadStream({ start, end: end - 1, highWaterMark: READ_CHUNK_BYTES })
  try {
    for await (const chunk of stream) {
      throwIfAborted(signal)
      yield chunk as Buffer
    }
  } catch (err) {
    throw fsError(err, `reading ${key}`)
  } finally {
    stream.destroy()
  }
}

/** Names in a directory, streamed (a shard may hold very many); none when it does not exist (yet). */
async function* namesIn(dir: string): AsyncGenerator<string> {
  const handle = await unlessMissing(`listing ${dir}`, () => opendir(dir))
  if (!handle) return
  for await (const entry of handle) yield entry.name
}

async function* nothing(): AsyncGenerator<Uint8Array> {}

/** A filesystem step for which a missing file is an answer (`undefined`), not a failure. */
async function unlessMissing<T>(action: string, step: () => Promise<T>): Promise<T | undefined> {
  try {
    return await step()
  } catch (err) {
    if (isMissing(err)) return undefined
    throw fsError(err, action)
  }
}

function isMissing(err: unknown): boolean {
  const errno = errnoOf(err)
  return errno === 'ENOENT' || errno === 'ENOTDIR'
}

function notFound(key: string, cause: unknown): PinfoldError {
  return new PinfoldError('NOT_FOUND', `blob ${key} not found`, { cause })
}

function invalidRange(key: string): PinfoldError {
  return new PinfoldError('INVALID_INPUT', `@pinfold/adapter-fs: invalid byte range for ${key}`)
}
