import { invalid, parseCid } from '@pinfold/core'

/**
 * The CID a subdomain-gateway host names (`{cidv1}.ipfs.{subdomainHost}`), or `undefined` when
 * `hostname` is not of that form. Host names are case-insensitive, so only a CIDv1 in base32 (the
 * lower-case multibase, prefix `b`) survives the trip through DNS and URL parsing; anything else
 * in the label is `INVALID_INPUT`.
 */
export function subdomainCid(hostname: string, subdomainHost: string): string | undefined {
  const suffix = `.ipfs.${subdomainHost}`
  if (!hostname.endsWith(suffix)) return undefined
  const label = hostname.slice(0, -suffix.length)
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
