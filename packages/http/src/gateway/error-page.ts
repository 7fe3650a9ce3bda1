import type { Middleware } from '../middleware/middleware.js'
import { isIpfsPath } from './request-host.js'
import { GATEWAY_SECURITY_HEADERS } from './responses.js'

/**
 * A browser (`Accept` naming `text/html`) that meets a gateway error gets a page saying it rather
 * than the JSON an API client reads: same status, same message. Gateway answers are those of the
 * gateway's routes, of `/ipfs/` paths and of subdomain-gateway hosts (whose label may be refused
 * before any route is chosen). Everything else, and every client that does not ask for HTML, keeps
 * the JSON `{"error": "…"}`.
 */
export function browserErrorPages(): Middleware {
  return async ({ request, url, seen }, next) => {
    const response = await next()
    if (response.status < 400 || !acceptsHtml(request.headers.get('accept'))) return response
    const gateway = seen.route === 'gateway' || isIpfsPath(url.pathname) || url.hostname.includes('.ipfs.')
    if (!gateway || !response.headers.get('content-type')?.startsWith('application/json')) return response
    const { error } = (await response.json()) as { error?: unknown }
    const headers = new Headers(response.headers)
    for (const [name, value] of Object.entries(GATEWAY_SECURITY_HEADERS)) headers.set(name, value)
    headers.set('content-type', 'text/html; charset=utf-8')
    headers.delete('content-length')
    return new Response(errorPage(response.status, String(error ?? 'error')), { status: response.status, headers })
  }
}

/** `text/html` listed with a weight above zero. */
function acceptsHtml(accept: string | null): boolean {
  return (accept ?? '').split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase())
    return type === 'text/html' && !params.some((param) => /^q=0(\.0*)?$/.test(param))
  })
}

function errorPage(status: number, message: string): string {
  const text = (value: string) => value.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${status} error</title></head><body><h1>${status} error</h1><p>${text(message)}</p></body></html>`
}
