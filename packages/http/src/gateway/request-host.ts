import { type FileService, PinfoldError } from '@pinfold/core'
import { subdomainCid } from './subdomain.js'

/**
 * Which face of this deployment a request's host name is; routes say on which they answer
 * (`hosts` in `router.ts`):
 * - `api`: the API, with the shared public gateway at `/ipfs/{cid}` under its mount prefix;
 * - `subdomain`: `{cidv1}.ipfs.{subdomainHost}`, that CID at the root of an origin of its own;
 * - `tenant`: a verified custom domain or a claimed dedicated name (`{name}.{gatewayDomain}`),
 *   that tenant's gateway at the root, whatever the API's mount prefix.
 */
export type RequestHost =
  | { kind: 'api'; subdomainGateway?: true }
  | { kind: 'subdomain'; cid: string }
  | { kind: 'tenant'; tenantId: string }

export const API_HOST: RequestHost = { kind: 'api' }

/**
 * The subdomain gateway's own host (`subdomainHost`) where it is not the API's: the API answers
 * there too, but its path gateway redirects browsers to `{cid}.ipfs.{host}` (subdomain-gateway spec).
 */
const SUBDOMAIN_GATEWAY_HOST: RequestHost = { kind: 'api', subdomainGateway: true }

export interface HostOptions {
  service: FileService
  /** Host name (no port) of the API itself: never a custom domain. */
  apiHostname: string
  /** Requests for `{cidv1}.ipfs.{subdomainHost}` are the subdomain gateway; unset, any `{cidv1}.ipfs.{host}`. */
  subdomainHost: string | undefined
}

/**
 * The host a request is for. Refused here, whatever the path: a subdomain label that is not a
 * CIDv1 in base32 or base36 of at most 63 characters (400) and an unclaimed
 * `{name}.{gatewayDomain}`, nobody's gateway (404). A custom domain that is only claimed refuses
 * its `/ipfs/` paths (403) and is otherwise the API's, so a claim can never take the API away
 * from that host name. Any other host is the API's.
 */
export async function resolveHost(
  request: Request,
  url: URL,
  { service, apiHostname, subdomainHost }: HostOptions,
): Promise<RequestHost> {
  const hostname = url.hostname.toLowerCase()
  const cid = subdomainCid(hostname, subdomainHost)
  if (cid !== undefined) return { kind: 'subdomain', cid }
  // where the subdomain host is the API's own (the default), API clients keep their path gateway
  if (hostname === subdomainHost && hostname !== apiHostname) return SUBDOMAIN_GATEWAY_HOST
  const gatewayDomain = service.domains.gatewayDomain
  // a name under the gateway domain is a gateway even when the API knows no host of its own
  const dedicated = gatewayDomain !== undefined && hostname.endsWith(`.${gatewayDomain}`)
  if (dedicated || (hostname !== apiHostname && hostname !== subdomainHost)) {
    const routed = await service.domains.route(hostname, { signal: request.signal })
    if (routed?.status === 'active') return { kind: 'tenant', tenantId: routed.tenantId }
    if (routed && isIpfsPath(url.pathname)) {
      throw new PinfoldError('FORBIDDEN', 'this domain is not verified yet (pending_ownership)')
    }
    if (dedicated) throw new PinfoldError('NOT_FOUND', `no gateway is named ${hostname}`)
  }
  return API_HOST
}

/**
 * Whether `resolveHost` asks the domain store about this host (a tenant's custom domain or
 * dedicated name may answer, and may change): else the host is told by its name alone, the same
 * for as long as the options are.
 */
export function hostNeedsLookup(url: URL, { service, apiHostname, subdomainHost }: HostOptions): boolean {
  const hostname = url.hostname.toLowerCase()
  if (subdomainCid(hostname, subdomainHost) !== undefined) return false
  if (hostname === subdomainHost && hostname !== apiHostname) return false
  const gatewayDomain = service.domains.gatewayDomain
  const dedicated = gatewayDomain !== undefined && hostname.endsWith(`.${gatewayDomain}`)
  return dedicated || (hostname !== apiHostname && hostname !== subdomainHost)
}

/** `/ipfs` and `/ipfs/…`, as written: the router, unlike the gateway, ignores empty segments. */
export function isIpfsPath(pathname: string): boolean {
  return pathname === '/ipfs' || pathname.startsWith('/ipfs/')
}

/** The tenant whose gateway `host` is; for routes that answer on tenants' hosts alone. */
export function tenantOf(host: RequestHost): string {
  if (host.kind !== 'tenant') throw new Error(`a tenant's gateway route answered on the ${host.kind} host`)
  return host.tenantId
}

/** The CID a subdomain gateway's host names; for routes that answer on that host alone. */
export function subdomainCidOf(host: RequestHost): string {
  if (host.kind !== 'subdomain') throw new Error(`a subdomain gateway route answered on the ${host.kind} host`)
  return host.cid
}
