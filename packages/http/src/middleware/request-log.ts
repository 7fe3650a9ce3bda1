import type { Middleware } from './middleware.js'

/** One line per request. Holds no header, query string or raw path: nothing secret can leak. */
export interface RequestLogEntry {
  request_id: string
  method: string
  /** The matched route pattern (`/v3/files/:network/:id`), `gateway`, or null when nothing matched. */
  route: string | null
  status: number
  duration_ms: number
  /** The authenticated caller's tenant, when the route needed a token and it verified. */
  tenant?: string
}

/** Where `createFetchHandler` writes its request log; `pinfold serve` prints JSON lines to stdout. */
export interface RequestLogger {
  info(entry: RequestLogEntry): void
  error(entry: RequestLogEntry): void
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The caller's `X-Request-Id` when it is a plain token (so it cannot forge log lines), else a new UUID. */
export function requestIdOf(request: Request): string {
  return requestIdFrom(request.headers.get('x-request-id'))
}

/** The same from the header's value (several headers joined by `, `, as `Headers.get` joins them). */
export function requestIdFrom(given: string | null | undefined): string {
  return given && SAFE_ID.test(given) ? given : crypto.randomUUID()
}

/** A JSON-lines logger for a stream such as `process.stdout`. */
export function jsonLinesLogger(write: (line: string) => void): RequestLogger {
  const emit = (level: string) => (entry: RequestLogEntry) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, message: 'request', ...entry })}\n`)
  return { info: emit('info'), error: emit('error') }
}

/**
 * Tags every answer with its request id (`X-Request-Id`) and, given a logger, writes its entry:
 * errors (5xx) at `error`, everything else at `info`.
 */
export function logRequests(logger: RequestLogger | undefined): Middleware {
  return async ({ request, seen }, next) => {
    const started = performance.now()
    const requestId = requestIdOf(request)
    // for the spans of the middleware after this one (traceRequests)
    seen.requestId = requestId
    const response = await next()
    response.headers.set('x-request-id', requestId)
    if (logger) {
      const entry = {
        request_id: requestId,
        method: request.method,
        route: seen.route,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        ...(seen.tenant && { tenant: seen.tenant }),
      }
      if (response.status >= 500) logger.error(entry)
      else logger.info(entry)
    }
    return response
  }
}
