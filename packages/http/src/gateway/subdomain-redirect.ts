import { dnsLabel } from '@pinfold/core'
import { checkedCid } from './gateway-path.js'
import { negotiateFormat } from './negotiation.js'
import { GATEWAY_SECURITY_HEADERS } from './responses.js'

/**
 * On the subdomain gateway's own host, `/ipfs/{cid}[/path]` is answered with a 301 to
 * `{cidv1}.ipfs.{host}[/path]` (subdomain-gateway spec): each CID's pages get an origin of their
 * own instead of sharing this one. The CID becomes its DNS label (CIDv1, base32 or base36: a CID
 * too long for a label is a 400); the path and query stay as written, percent-encoding included,
 * and the scheme and host are the request's own (from `X-Forwarded-*` behind a trusted proxy).
 * Trustless requests (a raw block, a CAR) are not redirected: they carry verifiable bytes, never
 * a page, and their clients expect the path gateway. `undefined`: serve the request as it is.
 */
export function subdomainRedirect(request: Request, url: URL, pathname: string): Response | undefined {
  const negotiated = negotiateFormat(request.headers.get('accept'), url.searchParams.get('format'))
  if (negotiated === 'not-acceptable' || negotiated.format !== undefined) return undefined
  const [, , first = '', ...rest] = pathname.split('/') // ['', 'ipfs', cid, ...path]
  if (first === '') return undefined
  const label = dnsLabel(checkedCid(pathname, first).toString())
  const location = `${url.protocol}//${label}.ipfs.${url.host}/${rest.join('/')}${url.search}`
  return new Response(null, { status: 301, headers: { ...GATEWAY_SECURITY_HEADERS, location } })
}
