import { randomUUID } from 'node:crypto'
import { type FileHandle, mkdir, open, rm } from 'node:fs/promises'
import path from 'node:path'
import { abortable, PinfoldError, type StagedBlobWrites, throwIfAborted } from '@pinfold/interface'
import { appendWriter } from './append-writer.js'
import { backgroundFlusher, moveIntoPlace, PRIVATE_DIR, PRIVATE_FILE } from './durable-files.js'
import { errnoOf, fsError, fsStep } from './fs-errors.js'

/** Where staging files live, under the store's directory (swept by `sweepStaged`). */
export const STAGING_DIR = '.staged'

/** A handle is the name of the staging file: a UUID, never a path a caller could steer. */
const HANDLE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Staged writes as one file per write under `<directory>/.staged/`, each part written at its
 * offset (`pwritev`) and fsynced before `appendPart` resolves; `complete` cuts the file at the
 * parts' total size (a part written again may have left longer bytes behind), fsyncs it and renames
 * it over the blob's path. No byte is read back or copied: a 2 GiB blob completes in one rename.
 * Staging files live apart from `.tmp/`, whose sweep removes files a crash left an hour ago: a
 * resumable upload may rest for a day between two parts. Abandoned ones are aborted by their owner
 * (core's sweep of expired upload sessions); one whose session was never recorded has no owner, and
 * the store's own sweep removes it after `staleStagedMs`.
 */
export function fsStagedWrites(directory: string, pathOf: (key: string) => string): StagedBlobWrites {
  const stagingDir = path.join(directory, STAGING_DIR)
  const fileOf = (key: string, handle: string) => {
    if (!HANDLE.test(handle)) throw new PinfoldError('NOT_FOUND', `no staged write ${handle} of ${key}`)
    return path.join(stagingDir, handle)
  }

  return {
    minPartBytes: 1,

    async begin(_key, options) {
      throwIfAborted(options?.signal)
      const handle = randomUUID()
      await fsStep('creating a staging file', async () => {
        await mkdir(stagingDir, { recursive: true, mode: PRIVATE_DIR })
        await (await open(path.join(stagingDir, handle), 'wx', PRIVATE_FILE)).close()
      })
      return handle
    },

    async appendPart(key, handle, offset, source, options) {
      const signal = options?.signal
      throwIfAborted(signal)
      const file = fileOf(key, handle)
      const opened = await openStaged(file, key, handle)
      const flusher = backgroundFlusher(opened)
      const writer = appendWriter(opened, (bytes) => flusher.wrote(bytes), offset)
      try {
        let size = 0
        for await (const chunk of abortable(source, signal)) {
          await fsStep('writing a staging file', () => writer.write(chunk))
          size += chunk.length
        }
        await fsStep('writing a staging file', () => writer.finish())
        await fsStep('flushing a staging file', () => flusher.finish())
        return { size, part: String(size) }
      } finally {
        // a failed part leaves bytes past `offset` that the next part at that offset overwrites
        await writer.finish().catch(() => {})
        await opened.close().catch(() => {})
      }
    },

    async complete(key, handle, parts, options) {
      throwIfAborted(options?.signal)
      const file = fileOf(key, handle)
      const size = parts.reduce((sum, part) => sum + partSize(part), 0)
      const opened = await openStaged(file, key, handle)
      await fsStep(`storing ${key}`, async () => {
        try {
          await opened.truncate(size)
          await opened.sync()
        } finally {
          await opened.close()
        }
        await moveIntoPlace(file, pathOf(key))
      })
      return { size }
    },

    async abort(key, handle, options) {
      throwIfAborted(options?.signal)
      await fsStep('removing a staging file', () => rm(fileOf(key, handle), { force: true }))
    },
  }
}

async function openStaged(file: string, key: string, handle: string): Promise<FileHandle> {
  try {
    return await open(file, 'r+')
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') throw new PinfoldError('NOT_FOUND', `no staged write ${handle} of ${key}`)
    throw fsError(error, 'opening a staging file')
  }
}

function partSize(part: string): number {
  const size = Number(part)
  if (!Number.isSafeInteger(size) || size < 0)
    throw new PinfoldError('INVALID_INPUT', `not a part of this store: ${part}`)
  return size
}
