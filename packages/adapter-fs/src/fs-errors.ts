import { isPinfoldError, PinfoldError } from '@pinfold/interface'

/** The errno code of a Node filesystem error (`ENOENT`, `EACCES`, …), if `err` is one. */
export function errnoOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined
}

/**
 * Wraps a filesystem failure with `{ cause }`. Permission problems are our own misconfiguration
 * (`STORAGE_DENIED`); every other errno (full disk, I/O error, too many open files) is an outage of
 * the storage (`UNAVAILABLE`). Anything that is not an errno error is a bug (`INTERNAL`).
 */
export function fsError(err: unknown, action: string): PinfoldError {
  if (isPinfoldError(err)) return err
  const errno = errnoOf(err)
  if (errno === 'EACCES' || errno === 'EPERM' || errno === 'EROFS') {
    return new PinfoldError('STORAGE_DENIED', `@pinfold/adapter-fs: ${action} was refused (${errno})`, { cause: err })
  }
  if (errno) return new PinfoldError('UNAVAILABLE', `@pinfold/adapter-fs: ${action} failed (${errno})`, { cause: err })
  return new PinfoldError('INTERNAL', `@pinfold/adapter-fs: ${action} failed`, { cause: err })
}

/** Runs one filesystem step, turning its failure into a coded error that names the step. */
export async function fsStep<T>(action: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (err) {
    throw fsError(err, action)
  }
}
