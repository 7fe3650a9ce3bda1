import { invalid } from '@pinfold/interface'
import { base32 } from 'multiformats/bases/base32'
import { base36 } from 'multiformats/bases/base36'
import { parseCid } from '../common/parse-cid.js'

/** RFC 1034: a DNS label holds at most 63 characters, so a longer CID cannot name a subdomain. */
export const DNS_LABEL_LIMIT = 63

const tooLong = (cid: string) => invalid(`CID incompatible with DNS label length limit of ${DNS_LABEL_LIMIT}: ${cid}`)

/**
 * The label a CID takes on the subdomain gateway (subdomain-gateway spec): CIDv1 (a CIDv0 becomes
 * its CIDv1), in base32, or in base36 when base32 is over the 63-character limit of a DNS label.
 * `INVALID_INPUT` when `cid` is no CID, or when neither spelling fits in a label.
 */
export function dnsLabel(cid: string): string {
  const parsed = parseCid(cid)
  const v1 = parsed.version === 0 ? parsed.toV1() : parsed
  const inBase32 = v1.toString(base32)
  if (inBase32.length <= DNS_LABEL_LIMIT) return inBase32
  const inBase36 = v1.toString(base36)
  if (inBase36.length <= DNS_LABEL_LIMIT) return inBase36
  throw tooLong(cid)
}

/**
 * A subdomain gateway's label as a CID: a CIDv1 in a lower-case multibase, the only spellings
 * that survive DNS and URL parsing (host names are case-insensitive): base32 (`b…`) or base36
 * (`k…`). `INVALID_INPUT` otherwise, and for a label over 63 characters, which no DNS name holds.
 */
export function cidOfDnsLabel(label: string): string {
  const cid = /^[bk][a-z0-9]+$/.test(label) ? safeParse(label) : undefined
  if (cid?.version !== 1) {
    throw invalid('a subdomain gateway label must be a CIDv1 in base32 or base36 ({cid}.ipfs.host)')
  }
  if (label.length > DNS_LABEL_LIMIT) throw tooLong(label)
  return label
}

function safeParse(label: string) {
  try {
    return parseCid(label)
  } catch {
    return undefined
  }
}
