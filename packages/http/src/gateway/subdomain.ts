import { invalid, parseCid } from '@pinfold/core'

/**
 * The CID a subdomain-gateway host names (`{cidv1}.ipfs.{subdomainHost}`), or `undefined` when
 * `hostname` is not of that form. With no `subdomainHost` (no public URL says which host is the
 * API's), any `{label}.ipfs.{host}` is: `{cid}.ipfs.localhost` works out of the box. Host names
 * are case-insensitive, so only a CIDv1 in base32 (the lower-case multibase, prefix `b`) survives
 * the trip through DNS and URL parsing; anything else in the label is `INVALID_INPUT`.
 */
export function subdomainCid(hostname: string, subdomainHost: string | undefined): string | undefined {
  const suffix = subdomainHost === undefined ? undefined : `.ipfs.${subdomainHost}`
  if (suffix !== undefined && !hostname.endsWith(suffix)) return undefined
  const end = suffix === undefined ? hostname.indexOf('.ipfs.') : hostname.length - suffix.length
  if (end < 0) return undefined
  const label = hostname.slice(0, end)
  const cid = label.startsWith('b') && !label.includes('.') ? safeParse(label) : undefined
  if (cid?.version !== 1) throw invalid('a subdomain gateway label must be a CIDv1 in base32 ({cid}.ipfs.host)')
  return label
}

function safeParse(label: string) {
  try {
    return parseCid(label)
  } catch {
    return undefined
  }
}
