import { defineRoute } from '../router.js'
import { dnslinkSiteRoute } from './dnslink-site.js'
import { privateLinkRoute, tenantPrivateLinkRoute } from './private-link.js'
import { isIpfsPath, subdomainCidOf } from './request-host.js'
import { contentPath, gatewayResponses, PathGatewayQuery, SubdomainGatewayQuery } from './schemas.js'
import { PUBLIC, serveGateway } from './serve-gateway.js'
import { subdomainRedirect } from './subdomain-redirect.js'

/**
 * `GET|HEAD /ipfs/{cid}[/path]`: on the API's host the shared public gateway, where every CID is
 * its own bytes, never swapped nor transformed (one tenant must not decide what a CID shows to
 * everyone, and anonymous image work belongs to a tenant's gateway); on a tenant's host, that
 * tenant's gateway, with its swaps and image options.
 */
const pathGatewayRoute = defineRoute({
  method: 'GET',
  path: '/ipfs/:path*',
  hosts: ['api', 'tenant'],
  gateway: true,
  when: (_, { pathname }) => isIpfsPath(pathname),
  auth: 'public',
  summary: 'Content by CID (path gateway)',
  tags: ['Gateway'],
  description:
    "The IPFS path gateway (specs: path-gateway, trustless-gateway). On the API's host, the shared public gateway: public content, each CID its own bytes. On a tenant's gateway host (a verified custom domain or a claimed `{name}.{gatewayDomain}`, served at its root whatever the API's mount prefix), that tenant's content with its hot swaps and image optimisation (`img-*`), counted in its gateway usage. `Accept` or `format` asks for a raw block or a CAR; ranges, `If-None-Match` and `Cache-Control: only-if-cached` are honoured. HTML is sandboxed (`Content-Security-Policy: sandbox`): the origin is shared. On the subdomain gateway's own host (when it is not the API's), a browser's request answers 301 to `{cidv1}.ipfs.{host}` (a CIDv0 becomes CIDv1; base36 where base32 exceeds a DNS label's 63 characters, 400 where neither fits); raw and CAR requests are served there as anywhere. `/ipfs/?uri=ipfs://{cid}/{path}` (a registered protocol handler) answers 301 to `/ipfs/{cid}/{path}`. Errors are JSON, or an HTML page for `Accept: text/html`.",
  request: {
    params: contentPath('The CID, then any path within it: `{cid}` or `{cid}/{path}`'),
    query: PathGatewayQuery,
  },
  responses: gatewayResponses,
  handle: async ({ request, url, pathname, host, service, images }) => {
    if (host.kind === 'tenant') {
      const scope = { kind: 'tenant', tenantId: host.tenantId } as const
      return serveGateway(request, url, pathname, { scope, isolated: false, images }, service)
    }
    const redirect = host.kind === 'api' && host.subdomainGateway && subdomainRedirect(request, url, pathname)
    if (redirect) return redirect
    return serveGateway(request, url, pathname, { scope: PUBLIC, isolated: false }, service)
  },
})

/** `{cidv1}.ipfs.{subdomainHost}/{path}`: that CID at the root of an origin of its own. */
const subdomainGatewayRoute = defineRoute({
  method: 'GET',
  path: '/:path*',
  hosts: ['subdomain'],
  gateway: true,
  auth: 'public',
  summary: 'Content by CID (subdomain gateway)',
  tags: ['Gateway'],
  description:
    "On `{cid}.ipfs.{subdomainHost}` only (the public URL's host by default), never on the API's: the subdomain gateway (spec: subdomain-gateway) serves that CID, a CIDv1 in base32, at the root of an origin of its own, so its pages run unsandboxed and may register service workers. Public content only, as on the path gateway. A `_redirects` file in the CID's root applies to paths it does not hold (IPIP-002: rules, placeholders, splats, 200 rewrites, custom 404/410/451 pages). The same paths on a tenant's gateway host whose `_dnslink.{host}` TXT record says `dnslink=/ipfs/{cid}[/path]` serve that website from the tenant's public content (spec: dnslink-gateway; TXT answers kept for their TTL, answers cached a minute downstream).",
  request: { params: contentPath('A path within the CID the host names'), query: SubdomainGatewayQuery },
  responses: gatewayResponses,
  handle: ({ request, url, host, service }) =>
    serveGateway(
      request,
      url,
      `/ipfs/${subdomainCidOf(host)}${url.pathname}`,
      // content paths in listings point at the parent domain's path gateway
      {
        scope: PUBLIC,
        isolated: true,
        contentOrigin: `//${url.host.slice(url.host.indexOf('.ipfs.') + 6)}`,
        site: `/ipfs/${subdomainCidOf(host)}`,
      },
      service,
    ),
})

/** The gateway's routes, listed in `/openapi.json` with the rest of the table. */
export const gatewayRoutes = [privateLinkRoute, pathGatewayRoute, subdomainGatewayRoute]

/**
 * Routed, but documented by another operation of the same path: `tenantPrivateLinkRoute` by the
 * API's, `dnslinkSiteRoute` by the subdomain gateway's (its description covers DNSLink hosts).
 */
export const tenantHostRoutes = [tenantPrivateLinkRoute, dnslinkSiteRoute]
