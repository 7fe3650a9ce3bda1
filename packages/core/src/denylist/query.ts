import type { CID } from 'multiformats/cid'
import { legacyCidText, modernCidText } from './hash-input.js'
import { type IpnsName, latin1, legacyIpnsText, modernIpnsText, normalizeIpnsName } from './ipns-name.js'
import { trimSlashes } from './path-spec.js'
import { QueryDigests, recentDigests } from './query-digests.js'
import { digestKey } from './rule-hashes.js'

/** What is asked for: content by CID (and a path below it), or an IPNS name (and a path). */
export type DenyQuery =
  | { readonly namespace: 'ipfs'; readonly cid: CID; readonly path?: string }
  | { readonly namespace: 'ipns'; readonly name: string; readonly path?: string }

const DAG_PB = 0x70

/** Longest path whose query digests are kept in `recentDigests` (longer ones are hashed each time). */
const MAX_KEPT_PATH = 256

/**
 * A query with the keys rules are indexed by: the multihash (or IPNS name) at once, the digests a
 * double-hashed rule is looked up by only when a list has such rules. A CID's digests are kept in
 * `recentDigests` (a repeat lookup hashes nothing); an IPNS name's, rarer, only for this query.
 */
export class PreparedQuery {
  readonly namespace: 'ipfs' | 'ipns'
  /** The CID's multihash bytes as latin1, or the IPNS name's normal form. */
  readonly key: string
  readonly path: string
  // fields, not closures, and the digests looked up only when asked: this runs per block served,
  // and what it allocates is most of its cost
  readonly #cid: CID | undefined
  readonly #name: IpnsName | undefined
  #digests: QueryDigests | undefined

  constructor(query: DenyQuery) {
    this.namespace = query.namespace
    this.path = trimSlashes(query.path ?? '')
    if (query.namespace === 'ipfs') {
      this.#cid = query.cid
      this.key = latin1(query.cid.multihash.bytes)
    } else {
      this.#name = normalizeIpnsName(query.name)
      this.key = this.#name.key
    }
  }

  #memo(): QueryDigests {
    if (this.#digests) return this.#digests
    // a multihash is self-delimiting, so `key/path` cannot be another query's key; names are not kept,
    // nor long paths: a caller names the path, and 32,768 kept keys of a URL's length would be
    // hundreds of MiB (the memo's bound counts entries, not bytes)
    this.#digests =
      this.#cid && this.path.length <= MAX_KEPT_PATH
        ? recentDigests.get(this.path === '' ? this.key : `${this.key}/${this.path}`)
        : new QueryDigests()
    return this.#digests
  }

  /** sha256 of `CIDv1-in-base32/path` (`…/` for the root; a key as a CIDv1, a domain as is), as latin1. */
  legacyKey(): string {
    const digests = this.#memo()
    const cid = this.#cid
    const codec = cid ? cid.code : 0
    if (digests.legacy === undefined || digests.legacyCodec !== codec) {
      digests.legacy = cid
        ? digestKey(0x12, legacyCidText(cid.version === 1 ? cid.bytes : v1Bytes(cid), this.path))
        : digestKey(0x12, `${legacyIpnsText(this.#name!)}/${this.path}`)
      digests.legacyCodec = codec
    }
    return digests.legacy
  }

  /** The digest with hash function `code` of `base58btc-multihash[/path]` (or `/ipns/domain[/path]`), as latin1. */
  modernKey(code: number): string {
    const digests = this.#memo()
    if (code === 0x12) {
      digests.sha256 ??= this.#modernDigest(code)
      return digests.sha256
    }
    digests.others ??= new Map()
    let key = digests.others.get(code)
    if (key === undefined) {
      key = this.#modernDigest(code)
      digests.others.set(code, key)
    }
    return key
  }

  #modernDigest(code: number): string {
    if (this.#cid) return digestKey(code, modernCidText(this.#cid.multihash.bytes, this.path))
    const base = modernIpnsText(this.#name!)
    return digestKey(code, this.path === '' ? base : `${base}/${this.path}`)
  }
}

/** A CIDv0's bytes as the CIDv1 (dag-pb) it is, without building the CID object. */
function v1Bytes(cid: CID): Uint8Array {
  const multihash = cid.multihash.bytes
  const bytes = new Uint8Array(2 + multihash.length)
  bytes[0] = 1
  bytes[1] = DAG_PB
  bytes.set(multihash, 2)
  return bytes
}
