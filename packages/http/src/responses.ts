import { isPinfoldError, type PinfoldError } from '@pinfold/core'
import { utf8Length } from './bytes.js'
import { rememberBody } from './response-body.js'
import { STATUS_BY_CODE } from './status.js'

export function json(body: unknown, status = 200, headers?: ConstructorParameters<typeof Headers>[0]): Response {
  const text = JSON.stringify(body)
  const response = new Response(text, { status, headers })
  response.headers.set('content-type', 'application/json; charset=utf-8')
  response.headers.set('content-length', String(utf8Length(text)))
  return rememberBody(response, text)
}

/** A plain-text answer: the legacy API's `OK` (its SDKs read these bodies as text). */
export function plainText(body: string, status = 200): Response {
  const response = new Response(body, { status })
  response.headers.set('content-type', 'text/plain; charset=utf-8')
  response.headers.set('content-length', String(utf8Length(body)))
  return rememberBody(response, body)
}

/** `{ data: … }`, the envelope of every v3 success. */
export const data = (value: unknown, status = 200) => json({ data: value }, status)

export function errorBody(
  message: string,
  status: number,
  headers?: ConstructorParameters<typeof Headers>[0],
): Response {
  return json({ error: message }, status, headers)
}

/**
 * Maps any thrown value to `{"error": "…"}`. Coded errors keep their message (they are written for
 * clients); anything else is a bug, reported as a bare 500 so internals never leak.
 */
export function errorResponse(error: unknown): Response {
  if (isPinfoldError(error)) {
    const headers = new Headers()
    const retryAfter = error.details?.retryAfterSeconds
    if (typeof retryAfter === 'number') headers.set('retry-after', String(Math.ceil(retryAfter)))
    const status = statusOf(error)
    // a 501 says what is not implemented; other 5xx keep internals to the logs
    const told = error.code === 'UNAVAILABLE' || error.code === 'NOT_IMPLEMENTED'
    const message = status >= 500 && !told ? 'internal server error' : error.message
    return errorBody(message, status, headers)
  }
  return errorBody('internal server error', 500)
}

/** The status of a coded error: its code's, except a deny rule's own status (its `gateway_status` hint). */
export function statusOf(error: PinfoldError): number {
  const hinted = error.details?.status
  return error.code === 'BLOCKED' && typeof hinted === 'number' ? hinted : STATUS_BY_CODE[error.code]
}
