import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { parseAnyCid } from './any-cid.js'

/** The multicodec of an IPNS key in a CID (`bafzaa…`, `k51…`). */
const LIBP2P_KEY = 0x72

/**
 * An IPNS name brought to one form, so every spelling of the same name meets the same rule: a key
 * (`k51…`, `bafzaa…`, `12D3Koo…`) by its multihash, a DNSLink name in lower case, with the
 * subdomain gateway's inlining undone (`my-site-com` is `my.site.com`, `a--b` is `a-b`).
 */
export type IpnsName =
  | { readonly kind: 'key'; readonly multihash: Uint8Array; readonly key: string }
  | { readonly kind: 'domain'; readonly domain: string; readonly key: string }

export function normalizeIpnsName(name: string): IpnsName {
  const multihash = keyMultihash(name)
  if (multihash) return { kind: 'key', multihash, key: `k:${latin1(multihash)}` }
  const lower = name.toLowerCase()
  const domain = lower.includes('.') ? lower : uninline(lower)
  return { kind: 'domain', domain, key: `d:${domain}` }
}

/** The name as the legacy (badbits) double hash writes it: a key as a CIDv1 in base32. */
export function legacyIpnsText(name: IpnsName): string {
  return name.kind === 'key' ? CID.createV1(LIBP2P_KEY, Digest.decode(name.multihash)).toString() : name.domain
}

/**
 * The name as the modern double hash writes it: a key as its base58btc multihash (as a CID's
 * multihash is written), a domain as `/ipns/domain`.
 */
export function modernIpnsText(name: IpnsName): string {
  return name.kind === 'key' ? base58btc.baseEncode(name.multihash) : `/ipns/${name.domain}`
}

function keyMultihash(name: string): Uint8Array | undefined {
  try {
    const cid = parseAnyCid(name)
    if (cid.code === LIBP2P_KEY) return cid.multihash.bytes
  } catch {
    // not a CID: a peer id in base58btc, or a domain
  }
  try {
    return Digest.decode(base58btc.baseDecode(name)).bytes
  } catch {
    return undefined
  }
}

function uninline(label: string): string {
  return label.replaceAll('--', '\u0000').replaceAll('-', '.').replaceAll('\u0000', '-')
}

/** The bytes as a latin1 string (a map key). A multihash is short: one `fromCharCode` call beats a `Buffer`'s. */
export function latin1(bytes: Uint8Array): string {
  if (bytes.length <= 256) return String.fromCharCode.apply(null, bytes as unknown as number[])
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
}
