import { randomUUID } from 'node:crypto'
import { access, constants, mkdir, open, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { PinfoldError } from '@pinfold/core'
import type { ServerConfig } from './config.js'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js'

const REASONS: Record<string, string> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a file is in the way',
  EEXIST: 'a file is in the way',
}

/**
 * Whether the server will write into its data directory: the generated secret, the embedded
 * database (and its lock), filesystem blobs. Stores handed to `startServer` are the caller's.
 */
export function writesDataDir(config: ServerConfig, storesGiven: boolean): boolean {
  const localStores = !storesGiven && config.storage !== 'memory'
  return !config.authSecret || (localStores && (!config.databaseUrl || !config.s3.bucket))
}

/**
 * Proves the data directory writable (creating it when missing) by creating and removing a file in
 * it, before anything else touches it. Without this a read-only or foreign directory surfaced as
 * whichever write came first: a start-up error naming `chmod` or, for a directory still to be
 * made, "no such file or directory"; and with records in PostgreSQL and blobs on the filesystem a
 * server that started, answered `/readyz` and refused every upload with a 503.
 */
export async function ensureWritableDataDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
    const probe = join(dir, `.write-probe-${randomUUID()}`)
    await (await open(probe, 'wx', PRIVATE_FILE_MODE)).close()
    await rm(probe, { force: true })
  } catch (error) {
    const code = await reasonCode(dir, error)
    throw new PinfoldError(
      'STORAGE_DENIED',
      `the data directory ${dir} is not writable (${REASONS[code] ?? code}): set PINFOLD_DATA_DIR to a directory this server can write`,
      { cause: error },
    )
  }
}

/**
 * The errno that explains the failure. A recursive mkdir under a read-only parent reports ENOENT
 * (Node retries each missing level and returns the first error), so for ENOENT the nearest
 * existing ancestor is asked whether it may be written.
 */
async function reasonCode(dir: string, error: unknown): Promise<string> {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
  if (code !== 'ENOENT') return code
  for (let ancestor = dirname(dir); ; ancestor = dirname(ancestor)) {
    const exists = await access(ancestor).then(
      () => true,
      () => false,
    )
    if (exists) {
      return access(ancestor, constants.W_OK).then(
        () => code,
        (denied: NodeJS.ErrnoException) => denied.code ?? code,
      )
    }
    if (dirname(ancestor) === ancestor) return code
  }
}
