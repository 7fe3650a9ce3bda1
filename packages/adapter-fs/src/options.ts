import path from 'node:path'
import { PinfoldError } from '@pinfold/core'

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
  if (typeof options?.directory !== 'string' || options.directory.trim() === '') {
    throw optionError('`directory` must be a non-empty path')
  }
  const staleTempMs = options.staleTempMs ?? ONE_HOUR_MS
  if (!Number.isFinite(staleTempMs) || staleTempMs < 0) {
    throw optionError('`staleTempMs` must be a non-negative number of milliseconds')
  }
  return { directory: path.resolve(options.directory), staleTempMs }
}

function optionError(message: string): PinfoldError {
  return new PinfoldError('INVALID_INPUT', `@pinfold/adapter-fs: ${message}`)
}
