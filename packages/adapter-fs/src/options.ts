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
}

export interface ResolvedFsOptions {
  directory: string
  staleTempMs: number
}

const ONE_HOUR_MS = 60 * 60 * 1000

export function resolveFsOptions(options: FsBlobStoreOptions): ResolvedFsOptions {
  const check = optionChecks('@pinfold/adapter-fs', 'createFsBlobStore')
  const directory = check.nonEmptyString('directory', options?.directory)
  const staleTempMs = check.nonNegativeNumber('staleTempMs', options.staleTempMs ?? ONE_HOUR_MS)
  return { directory: path.resolve(directory), staleTempMs }
}
