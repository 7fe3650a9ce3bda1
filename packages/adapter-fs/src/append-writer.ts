import type { FileHandle } from 'node:fs/promises'
import { chunkWeight } from '@pinfold/interface'

/** Bytes that may wait for the write in flight before `write` makes its caller wait too. */
export const WRITE_AHEAD_BYTES = 4 * 1024 * 1024

export interface AppendWriter {
  /**
   * Queues `chunk` after everything before it; waits only while {@link WRITE_AHEAD_BYTES} are queued,
   * chunks weighed by `chunkWeight` (a million 1-byte chunks must not fit).
   */
  write(chunk: Uint8Array): Promise<void>
  /** Resolves once every queued byte is written; rejects with the first failure. */
  finish(): Promise<void>
}

/**
 * Appends chunks to a file with one `writev` in flight at a time, gathering the chunks that arrive
 * meanwhile into the next one. Uploads arrive in 64 KiB network chunks: writing each on its own and
 * waiting for it took 16,384 thread-pool round trips per GiB, and the upload stood still during
 * each. `onWritten` hears of every batch once it is down. Writing begins at byte `start`.
 */
export function appendWriter(handle: FileHandle, onWritten: (bytes: number) => void, start = 0): AppendWriter {
  let queue: Uint8Array[] = []
  let queued = 0
  let queuedWeight = 0
  let position = start
  let inFlight: Promise<void> | undefined
  let failure: { error: unknown } | undefined

  const writeQueued = async () => {
    const batch = queue
    const bytes = queued
    queue = []
    queued = 0
    queuedWeight = 0
    await writeAllAt(handle, batch, position)
    position += bytes
    onWritten(bytes)
  }
  const startWriting = () => {
    inFlight = writeQueued()
      .catch((error: unknown) => {
        failure ??= { error }
      })
      .finally(() => {
        inFlight = undefined
        // chunks queued while this batch was being written go out in the next one
        if (queue.length > 0 && !failure) startWriting()
      })
  }

  const throwIfFailed = () => {
    if (failure) throw failure.error
  }

  return {
    async write(chunk) {
      throwIfFailed()
      queue.push(chunk)
      queued += chunk.length
      queuedWeight += chunkWeight(chunk)
      if (!inFlight) startWriting()
      while (queuedWeight >= WRITE_AHEAD_BYTES && inFlight) await inFlight
      throwIfFailed()
    },
    async finish() {
      while (inFlight) await inFlight
      throwIfFailed()
    },
  }
}

/** `writev` may write less than asked; continue from where it stopped until every byte is down. */
async function writeAllAt(handle: FileHandle, buffers: Uint8Array[], position: number): Promise<void> {
  for (let rest = buffers; rest.length > 0; ) {
    const { bytesWritten } = await handle.writev(rest, position)
    if (bytesWritten === 0) throw new Error('the file system accepted no bytes')
    position += bytesWritten
    rest = dropBytes(rest, bytesWritten)
  }
}

function dropBytes(buffers: Uint8Array[], count: number): Uint8Array[] {
  const rest: Uint8Array[] = []
  for (const buffer of buffers) {
    if (count >= buffer.length) count -= buffer.length
    else {
      rest.push(count > 0 ? buffer.subarray(count) : buffer)
      count = 0
    }
  }
  return rest
}
