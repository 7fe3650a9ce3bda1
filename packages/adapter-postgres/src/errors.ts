import { type CallOptions, isPinfoldError, PinfoldError, throwIfAborted } from '@pinfold/interface'

/** Socket-level failures: the server is unreachable or the connection died. */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
])

/** SQLSTATEs meaning "the server cannot serve us right now" (class 08 is matched by prefix). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300'])

/**
 * SQLSTATEs a client's value causes: malformed text for a type (22P02), a NUL byte or an
 * unsupported escape in text or JSON (22021, 22P05), a value too long or out of range (22001,
 * 22003), an index row too large (54000).
 */
const INPUT_SQLSTATES = new Set(['22P02', '22021', '22P05', '22001', '22003', '54000'])

/** pg reports some connection losses without a code; these are its messages for them. */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|connection error|not queryable/i

/**
 * Turns a driver failure into a coded {@link PinfoldError} that keeps the original as `cause`.
 * Errors that already carry a Pinfold code (aborts, not-found checks) pass through unchanged.
 * A client sees the messages of the 4xx and 503 codes: they say what is wrong in the domain's words,
 * the same as the memory adapter's and the core's checks, never this package's name or the action
 * (an unknown group is `group not found` whatever the shape of its id); the name and the action stay
 * on `INTERNAL`, which clients do not see and operators' logs do.
 */
export function toPinfoldError(err: unknown, action: string): PinfoldError {
  if (isPinfoldError(err)) return err
  const { code, constraint } = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: unknown
    constraint?: unknown
  }
  if (code === '23505') {
    return new PinfoldError('CONFLICT', 'already exists', { cause: err })
  }
  if (code === '23514' && typeof constraint === 'string' && constraint.startsWith('events_')) {
    // a malformed audit event: its write, and the change it rode with, are refused
    return new PinfoldError('INVALID_INPUT', 'malformed event', { cause: err })
  }
  if (code === '23503' && constraint === 'files_group_fk') {
    return new PinfoldError('NOT_FOUND', 'group not found', { cause: err })
  }
  if (typeof code === 'string' && INPUT_SQLSTATES.has(code)) {
    return new PinfoldError('INVALID_INPUT', 'malformed value', { cause: err })
  }
  if (isConnectionFailure(err)) {
    return new PinfoldError('UNAVAILABLE', 'the database is unavailable', { cause: err })
  }
  return new PinfoldError('INTERNAL', `@pinfold/adapter-postgres: ${action} failed`, { cause: err })
}

function isConnectionFailure(err: unknown): boolean {
  if (err instanceof AggregateError) return err.errors.some(isConnectionFailure)
  if (typeof err !== 'object' || err === null) return false
  const { code, message } = err as { code?: unknown; message?: unknown }
  if (typeof code === 'string') {
    if (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true
  }
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message)
}

/**
 * How every method of the store runs `work`: an aborted signal rejects before it starts, and a
 * driver failure comes out as a coded error naming `action`. A statement already sent runs to
 * completion (the signal is not passed to the driver).
 */
export async function guarded<T>(action: string, options: CallOptions | undefined, work: () => Promise<T>): Promise<T> {
  throwIfAborted(options?.signal)
  try {
    return await work()
  } catch (err) {
    throw toPinfoldError(err, action)
  }
}
