/**
 * Every failure Pinfold reports carries a stable code. Core and the adapters throw {@link PinfoldError};
 * only the HTTP layer turns codes into status codes (one exhaustive table, `STATUS_BY_CODE` of `@pinfold/http`).
 * Tests and callers branch on `err.code`, never on `instanceof`, because errors cross package copies.
 */
export const ERROR_CODES = [
  /** The request's shape or content is invalid. */
  'INVALID_INPUT',
  /** No credential, or the credential was rejected. */
  'UNAUTHENTICATED',
  /** A payment is required, or the one offered was refused. */
  'PAYMENT_REQUIRED',
  /** Authenticated, but not allowed (missing scope, expired or tampered signed URL). */
  'FORBIDDEN',
  /** Absent, or belonging to another tenant (the two are indistinguishable on purpose). */
  'NOT_FOUND',
  /** The resource's state is incompatible with the request. */
  'CONFLICT',
  /** The tenant's limits (storage, files, vectorized files) leave no room for what was asked. */
  'QUOTA_EXCEEDED',
  /** An upload exceeded the allowed size. */
  'PAYLOAD_TOO_LARGE',
  /**
   * Well-formed, but the stored content cannot be processed as asked within the server's limits:
   * a DAG that is malformed or too costly to walk, a file too costly to extract text from.
   */
  'UNPROCESSABLE',
  /** A byte range lies outside the content. */
  'RANGE_NOT_SATISFIABLE',
  /** A client sent more requests than its budget allows. */
  'RATE_LIMITED',
  /**
   * The content is refused by a deny list the operator applies (phishing, malware, a legal
   * takedown). `details` names the `list` and `line` of the rule, the `status` its hints ask
   * for (410 Gone unless the rule says otherwise, e.g. 451), and the `target` (CID or `/ipns/` name)
   * and `path` refused.
   */
  'BLOCKED',
  /** A client stopped sending its request body (no byte for longer than the server waits). */
  'REQUEST_TIMEOUT',
  /** The storage backend refused our own credentials: a server misconfiguration, not "not found". */
  'STORAGE_DENIED',
  /** A dependency (database, object store, facilitator, embedder) is down or timed out. */
  'UNAVAILABLE',
  /**
   * A well-formed request for something this server does not do: a gateway path that ends inside
   * a dag-json or dag-cbor block at a value that is not a link (only links are followed).
   */
  'NOT_IMPLEMENTED',
  /** The caller gave up (aborted signal). */
  'ABORTED',
  /** A bug or an unexpected failure. */
  'INTERNAL',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

export class PinfoldError extends Error {
  readonly code: ErrorCode
  /** Extra machine-readable facts for the HTTP layer (e.g. `retryAfterSeconds`), never secrets. */
  readonly details: Readonly<Record<string, unknown>> | undefined

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'PinfoldError'
    this.code = code
    this.details = options?.details
  }
}

const codes = new Set<string>(ERROR_CODES)

/** True for any error carrying one of Pinfold's codes, whichever copy of this package threw it. */
export function isPinfoldError(err: unknown): err is PinfoldError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    codes.has((err as { code: string }).code) &&
    (err as Error).name === 'PinfoldError'
  )
}

export function hasCode(err: unknown, code: ErrorCode): boolean {
  return isPinfoldError(err) && err.code === code
}

export const invalid = (message: string, cause?: unknown) => new PinfoldError('INVALID_INPUT', message, { cause })
export const notFound = (what: string) => new PinfoldError('NOT_FOUND', `${what} not found`)
export const conflict = (message: string) => new PinfoldError('CONFLICT', message)

/** Turns an aborted signal's reason into a coded error, so callers see `ABORTED` rather than a DOMException. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal)
}

export function abortError(signal: AbortSignal): PinfoldError {
  const reason: unknown = signal.reason
  if (isPinfoldError(reason)) return reason
  return new PinfoldError('ABORTED', 'the operation was aborted', {
    cause: reason,
  })
}
