import { chmod, mkdir, opendir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The data directory holds the signing secret, tokens, the database and every tenant's bytes: only
 * the server's user may read any of it. Modes are set explicitly (chmod ignores the umask, and an
 * existing file keeps its mode on rewrite), so a directory made by an older version is tightened too.
 */
export const PRIVATE_FILE_MODE = 0o600
export const PRIVATE_DIR_MODE = 0o700

/** Creates `dir` (and missing parents) owner-only, and tightens it when it already existed. */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  await chmod(dir, PRIVATE_DIR_MODE)
}

/** Writes `text` to `path`, owner-only even when the file existed with a wider mode. */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await writeFile(path, text, { mode: PRIVATE_FILE_MODE })
  await chmod(path, PRIVATE_FILE_MODE)
}

/** Files whose mode is changed at once: enough to overlap the calls, bounded for a tree of any size. */
const CHMOD_BATCH = 64

/**
 * Makes every file under `dir` 0600 and every directory 0700. For trees written by code that
 * chooses its own modes: PGlite unpacks its initial database with mode 0666 whatever the umask.
 * A directory's files are changed up to `CHMOD_BATCH` at once rather than one after another (the
 * embedded database's ~1,200 files took 110–230 ms of every start one by one); the tree is walked
 * one directory at a time, its entries read as a stream, so a backup's blob tree of any size holds
 * one batch in flight, not a promise per file.
 */
export async function makeTreePrivate(dir: string): Promise<void> {
  await chmod(dir, PRIVATE_DIR_MODE)
  let batch: Promise<void>[] = []
  for await (const entry of await opendir(dir)) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      await Promise.all(batch)
      batch = []
      await makeTreePrivate(path)
    } else if (entry.isFile()) {
      const changed = chmod(path, PRIVATE_FILE_MODE)
      // handled now as well: it may fail while the walk awaits its next entry, before Promise.all
      changed.catch(() => {})
      batch.push(changed)
      if (batch.length === CHMOD_BATCH) {
        await Promise.all(batch)
        batch = []
      }
    }
  }
  await Promise.all(batch)
}
