import { PinfoldError } from '@pinfold/core'
import { defineRoute } from '../router.js'
import { isIpfsPath, tenantOf } from './request-host.js'
import { contentPath, gatewayResponses, PathGatewayQuery } from './schemas.js'
import { serveGateway } from './serve-gateway.js'

/**
 * How long a DNSLink answer may be cached downstream: the record can name another CID at any
 * time, so never `immutable` (the CIDs behind it still are, under `/ipfs/`).
 */
const DNSLINK_CACHE = 'public, max-age=60'

/**
 * `GET|HEAD /{path}` on a tenant's gateway host (a verified custom domain or a dedicated name)
 * whose `_dnslink.{host}` TXT record names `/ipfs/{cid}[/sub]`: that website at the host's root,
 * from the tenant's own public content, with its `_redirects`. The host is the site's own origin,
 * so its pages run unsandboxed (the host's `/ipfs/` paths stay sandboxed). Only hosts already
 * verified as the tenant's are looked up: a client cannot make the server query names it picks.
 */
export const dnslinkSiteRoute = defineRoute({
  method: 'GET',
  path: '/:path*',
  hosts: ['tenant'],
  gateway: true,
  // `/files/{cid}` is the tenant's private links (`tenantPrivateLinkRoute`)
  when: (_, { pathname }) => !isIpfsPath(pathname) && !/^\/files\/[^/]+$/.test(pathname),
  auth: 'public',
  summary: 'A website by DNSLink (DNSLink gateway)',
  tags: ['Gateway'],
  description:
    "On a tenant's gateway host (a verified custom domain or a claimed `{name}.{gatewayDomain}`) whose `_dnslink.{host}` TXT record says `dnslink=/ipfs/{cid}[/path]` (spec: dnslink-gateway): that website, from the tenant's public content, at the host's root. A `_redirects` file in its root applies (rules, placeholders, splats, custom 404 pages). TXT answers are kept for their TTL. Answers are cached downstream for a minute, never as immutable: the record may change. 404 when the host has no DNSLink record.",
  request: { params: contentPath('A path within the website the DNSLink record names'), query: PathGatewayQuery },
  responses: gatewayResponses,
  handle: async ({ request, url, host, service, images }) => {
    const hostname = url.hostname.toLowerCase()
    const gatewayTenant = tenantOf(host)
    // a rule on the name blocks the whole site (as a blocked name does not resolve in Kubo); one
    // on a path below it, that path; the tenant's own list applies on its host too
    service.denylist.enforce({ namespace: 'ipns', name: hostname }, 'gateway', { gatewayTenant })
    service.denylist.enforce({ namespace: 'ipns', name: hostname, path: url.pathname }, 'gateway', { gatewayTenant })
    const target = await service.dnslink.resolve(hostname, { signal: request.signal })
    if (!target) {
      throw new PinfoldError(
        'NOT_FOUND',
        `a gateway serves /ipfs/{cid} and /files/{cid} paths only, and a website where its host has a DNSLink record (${hostname} has no TXT _dnslink.${hostname})`,
      )
    }
    const site = `/ipfs/${[target.cid, ...target.path].join('/')}`
    const scope = { kind: 'tenant', tenantId: gatewayTenant } as const
    const response = await serveGateway(
      request,
      url,
      `${site}${url.pathname}`,
      { scope, isolated: true, images, site, dnslinkHost: hostname },
      service,
    )
    if (response.headers.get('cache-control')?.includes('immutable')) {
      response.headers.set('cache-control', DNSLINK_CACHE)
    }
    return response
  },
})
