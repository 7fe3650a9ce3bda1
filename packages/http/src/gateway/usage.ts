import type { FileService, GatewayHit } from '@pinfold/core'
import { countBody } from '../counted-body.js'
import type { Middleware } from '../middleware/middleware.js'

type Attribution = Omit<GatewayHit, 'status' | 'bytes'> & {
  /**
   * Bytes served elsewhere on this answer's behalf, counted instead of its own body: a redirect to
   * the blob store's presigned URL hands out the whole file (the most the client can fetch there).
   */
  servedElsewhere?: number | undefined
}

/** Answers of a tenant's content, marked by the handler that knows whose content it is. */
const attributions = new WeakMap<Response, Attribution>()

/** Marks a gateway answer as the tenant's, for its usage counts; returns the same response. */
export function attributeUsage(response: Response, attribution: Attribution): Response {
  attributions.set(response, attribution)
  return response
}

/**
 * Counts a marked answer in the service's usage: its status, and the body bytes that went out,
 * counted as the client reads them and recorded when the body ends or the client goes away.
 * Unmarked answers pass through untouched.
 */
function meterUsage(service: FileService, request: Request, response: Response): Response {
  const found = attributions.get(response)
  if (!found) return response
  const { servedElsewhere, ...attribution } = found
  const record = (bytes: number) => service.usage.recordGatewayHit({ ...attribution, status: response.status, bytes })
  const body = response.body
  if (servedElsewhere !== undefined || !body || request.method === 'HEAD') {
    record(request.method === 'HEAD' ? 0 : (servedElsewhere ?? 0))
    return response
  }
  // with a known length the hit is recorded as the last byte is handed on, before the client can
  // have it: a client reading its analytics right after a download then always sees the download
  const length = Number(response.headers.get('content-length') ?? Number.NaN)
  let recorded = false
  const recordOnce = (bytes: number) => {
    if (!recorded) record(bytes)
    recorded = true
  }
  return countBody(response, {
    chunk: (bytes) => {
      if (bytes >= length) recordOnce(bytes)
    },
    end: recordOnce,
  })
}

/** Counts the answers handlers marked as a tenant's (`attributeUsage`) in that tenant's usage. */
export function meterGatewayUsage(service: FileService): Middleware {
  return async ({ request }, next) => meterUsage(service, request, await next())
}
