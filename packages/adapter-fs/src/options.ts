import path from 'node:path'
import { optionChecks } from '@pinfold/interface'

export interface FsBlobStoreOptions {
  /** Directory that holds the blobs (`blobs/`) and writes in progress (`.tmp/`); created when missing. */
  directory: string
  /**
   * A temp file untouched for this long is a leftover of a crashed write, and the sweep that runs
   * before the store's first write removes it. Default: one hour.
   */
  staleTempMs?: number | undefined
  /**
   * A staging file (`.staged/`, a resumable upload's blob being written) untouched for this long
   * belongs to no live upload: a process killed between beginning it and recording the upload's
   * session left it, and nothing else would remove it. The same sweep removes it. Default: a week
   * (a session expires a day after its last PATCH, and every PATCH past the first leaf writes it).
   */
  staleStagedMs?: number | undefined
}

export interface ResolvedFsOptions {
  directory: string
  staleTempMs: number
  staleStagedMs: number
}

const ONE_HOUR_MS = 60 * 60 * 1000
const ONE_WEEK_MS = 7 * 24 * ONE_HOUR_MS

export function resolveFsOptions(options: FsBlobStoreOptions): ResolvedFsOptions {
  const check = optionChecks('@pinfold/adapter-fs', 'createFsBlobStore')
  const directory = check.nonEmptyString('directory', options?.directory)
  const staleTempMs = check.nonNegativeNumber('staleTempMs', options.staleTempMs ?? ONE_HOUR_MS)
  const staleStagedMs = check.nonNegativeNumber('staleStagedMs', options.staleStagedMs ?? ONE_WEEK_MS)
  return { directory: path.resolve(directory), staleTempMs, staleStagedMs }
}
