import type { Middleware } from './middleware.js'

export interface CorsOptions {
  /** Allowed origins: `'*'` (default — bearer tokens, no cookies), a list, or `false` to send no CORS headers. */
  origins?: '*' | readonly string[] | false
}

const ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Source',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Offset',
  'Upload-Defer-Length',
  'Upload-Concat',
  'Tus-Resumable',
  'X-HTTP-Method-Override',
  'X-Requested-With',
  'X-PAYMENT',
  'PAYMENT-SIGNATURE',
  // x402 clients send this response header name as a request header too
  'Access-Control-Expose-Headers',
  'x-pinata-gateway-token',
  'Range',
  'If-None-Match',
  // what the gateway's browser clients send (path-gateway CORS, as Kubo allows it)
  'User-Agent',
].join(', ')

// The official SDK and browsers' tus clients read these from cross-origin responses.
const EXPOSE_HEADERS = [
  'Location',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Expires',
  'upload-cid',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
  'X-PAYMENT-RESPONSE',
  'PAYMENT-RESPONSE',
  'PAYMENT-REQUIRED',
  'ETag',
  'Content-Range',
  'Content-Disposition',
  'X-Ipfs-Path',
  'X-Ipfs-Roots',
  // the gateway's: a reader of a file, a range or a streamed CAR needs its length and framing
  'Content-Length',
  'X-Chunked-Output',
  'X-Stream-Output',
  'X-Request-Id',
  'Retry-After',
].join(', ')

const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'

/** What a gateway answer allows cross-origin, on every answer (as path gateways send it), not only preflights. */
const GATEWAY_METHODS = 'GET, HEAD, OPTIONS'

export function corsHeaders(options: CorsOptions, origin: string | null): Record<string, string> {
  const allowed = options.origins ?? '*'
  if (allowed === false) return {}
  if (allowed === '*') return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSE_HEADERS }
  if (origin && allowed.includes(origin)) {
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSE_HEADERS, vary: 'Origin' }
  }
  return { vary: 'Origin' }
}

export function preflightHeaders(options: CorsOptions, origin: string | null): Record<string, string> {
  const base = corsHeaders(options, origin)
  if (!base['access-control-allow-origin']) return base
  return {
    ...base,
    'access-control-allow-methods': METHODS,
    'access-control-allow-headers': ALLOW_HEADERS,
    'access-control-max-age': '86400',
  }
}

/**
 * Answers preflights (`OPTIONS`) itself and sets the CORS headers on every answer, errors included;
 * a gateway answer also says which methods and headers it allows (path-gateway CORS).
 */
export function cors(options: CorsOptions): Middleware {
  return async ({ request, seen }, next) => {
    const origin = request.headers.get('origin')
    const response =
      request.method === 'OPTIONS'
        ? new Response(null, { status: 204, headers: preflightHeaders(options, origin) })
        : await next()
    const headers = corsHeaders(options, origin)
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
    if (seen.route === 'gateway' && headers['access-control-allow-origin']) {
      response.headers.set('access-control-allow-methods', GATEWAY_METHODS)
      response.headers.set('access-control-allow-headers', ALLOW_HEADERS)
    }
    return response
  }
}
