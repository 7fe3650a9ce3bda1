import { abortError, type ErrorCode, isPinfoldError, PinfoldError } from '@pinfold/interface'

/** S3 error names whose meaning is "our own credentials or setup were refused". */
const DENIED = new Set([
  'AccessDenied',
  'AccountProblem',
  'AllAccessDisabled',
  'CredentialsProviderError',
  'ExpiredToken',
  'Forbidden',
  'InvalidAccessKeyId',
  'InvalidToken',
  'NoSuchBucket',
  'SignatureDoesNotMatch',
])

/** S3 error names that say "try again later". */
const UNAVAILABLE = new Set([
  'InternalError',
  'RequestTimeout',
  'ServiceUnavailable',
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TimeoutError',
])

interface S3LikeError {
  name?: unknown
  code?: unknown
  $metadata?: { httpStatusCode?: unknown }
}

/**
 * Turns an S3 client failure into a coded error with the original as `cause`. A 403 is never
 * "not found": it means the store's own credentials or bucket setup are wrong (`STORAGE_DENIED`),
 * and a missing bucket is reported the same way for the same reason. An abort of `signal` wins
 * over whatever the SDK reported while it was being torn down.
 */
export function s3Error(err: unknown, action: string, signal?: AbortSignal | undefined): PinfoldError {
  if (signal?.aborted) return abortError(signal)
  if (isPinfoldError(err)) return err
  const { name, status, errno } = describe(err)
  const code = classify(name, status, errno)
  const what = [name, status === undefined ? undefined : `HTTP ${status}`, errno].filter(Boolean).join(', ')
  return new PinfoldError(code, `@pinfold/adapter-s3: ${action} failed${what ? ` (${what})` : ''}`, { cause: err })
}

function classify(name: string | undefined, status: number | undefined, errno: string | undefined): ErrorCode {
  if (name === 'AbortError') return 'ABORTED'
  if (name !== undefined && DENIED.has(name)) return 'STORAGE_DENIED'
  if (name === 'NoSuchKey' || name === 'NotFound') return 'NOT_FOUND'
  if (name === 'InvalidRange') return 'RANGE_NOT_SATISFIABLE'
  if (name !== undefined && UNAVAILABLE.has(name)) return 'UNAVAILABLE'
  if (status === 401 || status === 403) return 'STORAGE_DENIED'
  if (status === 404) return 'NOT_FOUND'
  if (status === 416) return 'RANGE_NOT_SATISFIABLE'
  if (status === 429 || (status !== undefined && status >= 500)) return 'UNAVAILABLE'
  // No HTTP answer at all: refused, reset, timed out, DNS failure.
  if (status === undefined && errno !== undefined) return 'UNAVAILABLE'
  return 'INTERNAL'
}

function describe(err: unknown): { name?: string; status?: number; errno?: string } {
  const e = (typeof err === 'object' && err !== null ? err : {}) as S3LikeError
  const status = e.$metadata?.httpStatusCode
  return {
    name: typeof e.name === 'string' ? e.name : undefined,
    status: typeof status === 'number' ? status : undefined,
    errno: typeof e.code === 'string' && /^E[A-Z0-9_]+$/.test(e.code) ? e.code : undefined,
  }
}
