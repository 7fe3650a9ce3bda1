import { cidOfDnsLabel } from '@pinfold/core'

/**
 * The CID a subdomain-gateway host names (`{cidv1}.ipfs.{subdomainHost}`), or `undefined` when
 * `hostname` is not of that form. With no `subdomainHost` (no public URL says which host is the
 * API's), any `{label}.ipfs.{host}` is: `{cid}.ipfs.localhost` works out of the box. The label
 * must be a CIDv1 in base32 or base36 of at most 63 characters (`cidOfDnsLabel`), else `INVALID_INPUT`.
 */
export function subdomainCid(hostname: string, subdomainHost: string | undefined): string | undefined {
  const suffix = subdomainHost === undefined ? undefined : `.ipfs.${subdomainHost}`
  if (suffix !== undefined && !hostname.endsWith(suffix)) return undefined
  const end = suffix === undefined ? hostname.indexOf('.ipfs.') : hostname.length - suffix.length
  if (end < 0) return undefined
  return cidOfDnsLabel(hostname.slice(0, end))
}
