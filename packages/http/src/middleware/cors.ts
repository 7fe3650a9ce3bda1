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
  'X-Request-Id',
  'Retry-After',
].join(', ')

const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'

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

/** Answers preflights (`OPTIONS`) itself and sets the CORS headers on every answer, errors included. */
export function cors(options: CorsOptions): Middleware {
  return async ({ request }, next) => {
    const origin = request.headers.get('origin')
    const response =
      request.method === 'OPTIONS'
        ? new Response(null, { status: 204, headers: preflightHeaders(options, origin) })
        : await next()
    for (const [name, value] of Object.entries(corsHeaders(options, origin))) response.headers.set(name, value)
    return response
  }
}
