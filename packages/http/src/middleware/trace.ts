import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api'
import type { Middleware } from './middleware.js'

/**
 * One OpenTelemetry span per request (kind SERVER), active while the route runs, so the service
 * operations and store calls it makes are its children. Named by the route pattern once routing
 * knows it (`GET /v3/files/:network/:id`), with the request id the request log writes
 * (`pinfold.request_id`), the tenant, and the status. It ends when the answer's headers are ready: a
 * streamed body's transfer is not in it. Only in the list when `createFetchHandler({ tracer })`.
 */
export function traceRequests(tracer: Tracer): Middleware {
  return (exchange, next) => {
    const { request, seen } = exchange
    return tracer.startActiveSpan(
      request.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method } },
      async (span) => {
        try {
          const response = await next()
          span.setAttribute('http.response.status_code', response.status)
          if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
          return response
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR })
          throw error
        } finally {
          if (seen.route) {
            span.updateName(`${request.method} ${seen.route}`)
            span.setAttribute('http.route', seen.route)
          }
          if (seen.requestId) span.setAttribute('pinfold.request_id', seen.requestId)
          if (seen.tenant) span.setAttribute('pinfold.tenant', seen.tenant)
          span.end()
        }
      },
    )
  }
}
