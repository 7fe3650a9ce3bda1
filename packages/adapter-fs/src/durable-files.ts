import type { FileHandle } from 'node:fs/promises'
import { mkdir, open, rename } from 'node:fs/promises'
import path from 'node:path'

/**
 * Blobs are tenants' private content: only the server's user may read them, whatever its umask
 * (the umask can only remove permissions from these).
 */
export const PRIVATE_FILE = 0o600
export const PRIVATE_DIR = 0o700

/** Bytes written between background flushes of a blob being stored. */
export const FLUSH_EVERY_BYTES = 32 * 1024 * 1024

/**
 * Flushes a file to disk while it is still being written, so the fsync that commits it finds
 * little left to do: one fsync at the end of a 1 GiB upload waited for the whole GiB to reach the
 * disk, with the client's bytes already all sent (the `bytes_per_sync` idea of RocksDB).
 * At most one flush runs at a time; a failed one is reported by `finish`.
 */
export function backgroundFlusher(handle: FileHandle) {
  let unflushed = 0
  let running: Promise<void> | undefined
  let failure: unknown
  return {
    wrote(bytes: number) {
      unflushed += bytes
      if (unflushed < FLUSH_EVERY_BYTES || running) return
      unflushed = 0
      running = handle
        .datasync()
        .catch((error: unknown) => {
          failure ??= error
        })
        .finally(() => {
          running = undefined
        })
    },
    async finish() {
      await running
      if (failure) throw failure
      await handle.sync()
    },
  }
}

/** Renames a complete temp file over `target`, then makes the new directory entries durable. */
export async function moveIntoPlace(temp: string, target: string): Promise<void> {
  const dir = path.dirname(target)
  const firstCreated = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR })
  await rename(temp, target)
  // The rename lives in `dir`; directories mkdir just created live in their parents, up to the
  // parent of the first one created. Without these fsyncs a crash could forget the blob after
  // put has resolved.
  const top = firstCreated === undefined ? dir : path.dirname(firstCreated)
  for (let current = dir; ; current = path.dirname(current)) {
    await fsyncDirectory(current)
    if (current === top) break
  }
}

async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
