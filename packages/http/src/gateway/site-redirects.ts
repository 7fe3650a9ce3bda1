import {
  type FileService,
  type GatewayScope,
  isPinfoldError,
  MAX_REDIRECTS_FILE_BYTES,
  matchRedirect,
  parseRedirectsFile,
  type RedirectMatch,
  type RedirectRule,
} from '@pinfold/core'
import { concatBytes } from '../bytes.js'
import { errorBody } from '../responses.js'
import { decodeSegment } from './gateway-path.js'
import { negotiateFormat } from './negotiation.js'
import { GATEWAY_SECURITY_HEADERS } from './responses.js'

/** What a website's fallback needs of the request it answers. */
export interface SiteRequest {
  request: Request
  url: URL
  /** The gateway path asked for: `{site}{path on the site}`. */
  pathname: string
  /** The website's root as a gateway path: `/ipfs/{cid}` or, from a DNSLink, `/ipfs/{cid}/{sub}`. */
  site: string
  scope: GatewayScope
  service: FileService
  /** Serves another gateway path of the same origin, as the gateway would (a rewrite's target). */
  serve(request: Request, pathname: string): Promise<Response>
}

/**
 * A website's answer for a path it does not hold (`missing`, a `NOT_FOUND` from the gateway): the
 * first rule of its `_redirects` file that matches (IPIP-002), or `missing` rethrown when there
 * is no file or no rule. Only for deserialized answers (a raw block or CAR asked for is answered
 * as asked), and only where the caller has given each site an origin of its own (the subdomain
 * gateway, a DNSLink host): on a shared origin one site's rules would act for every other.
 * A `_redirects` that cannot be read is a 500 saying why, as the spec asks.
 */
export async function siteFallback(missing: unknown, ask: SiteRequest): Promise<Response> {
  if (!isPinfoldError(missing) || missing.code !== 'NOT_FOUND' || !deserialized(ask)) throw missing
  const rules = await readRules(ask)
  if (rules instanceof Response) return rules
  const sitePath = ask.pathname.slice(ask.site.length) || '/'
  const match = rules && matchRedirect(rules, sitePath)
  if (!match) throw missing
  if (match.status >= 300 && match.status < 400) return redirect(match, ask.url)
  const target = `${ask.site}${match.to.split(/[?#]/)[0]}`
  if (match.status === 200) return ask.serve(ask.request, target)
  // a custom error page: the page itself, whole, under the rule's status
  const headers = new Headers(ask.request.headers)
  headers.delete('range')
  headers.delete('if-none-match')
  const { url, method, signal } = ask.request
  const page = await ask.serve(new Request(url, { method, headers, signal }), target)
  return new Response(page.body, { status: match.status, headers: page.headers })
}

function deserialized({ request, url }: SiteRequest): boolean {
  const negotiated = negotiateFormat(request.headers.get('accept'), url.searchParams.get('format'))
  return negotiated !== 'not-acceptable' && negotiated.format === undefined
}

/** The site's rules; `undefined` without a `_redirects` file; a 500 answer when it is unusable. */
async function readRules({
  request,
  site,
  scope,
  service,
}: SiteRequest): Promise<RedirectRule[] | Response | undefined> {
  const options = { signal: request.signal }
  let bytes: Uint8Array
  try {
    const [cid, ...sub] = site.split('/').slice(2).map(decodeSegment)
    const root = await service.gateway.resolve(scope, cid!, { ...options, swaps: true })
    const file = await service.gateway.entry(root, [...sub, '_redirects'], options)
    if (file.type !== 'file') return undefined
    if (file.size > MAX_REDIRECTS_FILE_BYTES) {
      return unusable(`redirects file size cannot exceed ${MAX_REDIRECTS_FILE_BYTES} bytes`)
    }
    const chunks: Uint8Array[] = []
    for await (const chunk of await file.read(undefined, options)) chunks.push(chunk)
    bytes = concatBytes(chunks)
  } catch (error) {
    if (isPinfoldError(error) && error.code === 'NOT_FOUND') return undefined
    throw error
  }
  try {
    return parseRedirectsFile(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch (error) {
    if (isPinfoldError(error)) return unusable(error.message)
    return unusable('the file is not UTF-8 text')
  }
}

const unusable = (why: string) => errorBody(`could not parse _redirects: ${why}`, 500)

/**
 * A 3xx to the rule's target. The request's own query parameters travel along and win over the
 * rule's static ones (spec: query parameters).
 */
function redirect(match: RedirectMatch, url: URL): Response {
  let location = match.to
  if (url.search) {
    const absolute = /^https?:\/\//i.test(location)
    const target = new URL(location, 'http://site.invalid')
    for (const [name, value] of url.searchParams) target.searchParams.set(name, value)
    location = absolute ? target.toString() : `${target.pathname}${target.search}${target.hash}`
  }
  return new Response(null, { status: match.status, headers: { ...GATEWAY_SECURITY_HEADERS, location } })
}
