import type { CID } from 'multiformats/cid'
import type { DigestRule, DigestTable } from './digest-table.js'
import { legacyCidText, modernCidText } from './hash-input.js'
import { type IpnsName, latin1, legacyIpnsText, modernIpnsText, normalizeIpnsName } from './ipns-name.js'
import { trimSlashes } from './path-spec.js'
import { MAX_KEY_BYTES, type QueryDigestCache, recentDigests } from './query-digests.js'
import { digestInto, digestWidth } from './rule-hashes.js'

/** What is asked for: content by CID (and a path below it), or an IPNS name (and a path). */
export type DenyQuery =
  | { readonly namespace: 'ipfs'; readonly cid: CID; readonly path?: string }
  | { readonly namespace: 'ipns'; readonly name: string; readonly path?: string }

const SHA2_256 = 0x12
const SLASH = 0x2f

/**
 * A query with what rules are looked up by, each made only when a list needs it: the multihash
 * (or IPNS name) for `/ipfs/` and `/ipns/` rules, the double hashes for double-hashed rules. A
 * CID's double hashes are written in (and read back from) `recentDigests()`, as bytes: a repeat
 * lookup hashes nothing, and no lookup makes a string for them.
 *
 * One instance serves every check of a list set, made ready for each by `prepare`: a lookup
 * allocates no query. (An instance per check also cost its shape: with none alive at a full
 * collection, V8 drops the shape and every function optimized for it, and the next thousands of
 * lookups ran unoptimized, at several times the cost.) Good for one check only: its digests'
 * entry in the cache may be another query's once the next query looks one up (checks are
 * synchronous, so none comes in between).
 */
export class PreparedQuery {
  namespace: 'ipfs' | 'ipns' = 'ipfs'
  path = ''
  #cid: CID | undefined
  #name: IpnsName | undefined
  #key: string | undefined
  /** This query's entry in the cache, -1 until a double hash is asked for. */
  #entry = -1
  /** Digests with hash functions other than sha2-256 (rare: not kept past the query), by function. */
  #others: Map<number, Uint8Array> | undefined

  /** Makes this the query for `query`, nothing of the last one kept. */
  prepare(query: DenyQuery): this {
    this.namespace = query.namespace
    this.path = trimSlashes(query.path ?? '')
    this.#key = undefined
    this.#entry = -1
    this.#others = undefined
    if (query.namespace === 'ipfs') {
      this.#cid = query.cid
      this.#name = undefined
    } else {
      this.#cid = undefined
      this.#name = normalizeIpnsName(query.name)
    }
    return this
  }

  /** What `/ipfs/` and `/ipns/` rules are indexed by: the CID's multihash bytes as latin1, or the IPNS name's normal form. */
  get key(): string {
    this.#key ??= this.#cid ? latin1(this.#cid.multihash.bytes) : this.#name!.key
    return this.#key
  }

  /** The rule in `table` for sha256 of `CIDv1-in-base32/path` (`…/` for the root; a key as a CIDv1, a domain as is). */
  legacyRule(table: DigestTable): DigestRule | undefined {
    const cache = this.#cache()
    const entry = this.#entry
    const at = cache.legacyAt(entry)
    // badbits hashes the whole CIDv1: a raw and a dag-pb CID of the same multihash differ
    const codec = this.#cid ? this.#cid.code : 0
    if (cache.legacyCodec(entry) !== codec) {
      const cid = this.#cid
      const text = cid ? legacyCidText(cid, this.path) : `${legacyIpnsText(this.#name!)}/${this.path}`
      digestInto(SHA2_256, text, cache.bytes, at)
      cache.setLegacyCodec(entry, codec)
    }
    return table.get(cache.bytes, at)
  }

  /** The rule in `table` (of hash function `code`) for the digest of `base58btc-multihash[/path]` (or `/ipns/domain[/path]`). */
  modernRule(code: number, table: DigestTable): DigestRule | undefined {
    if (code === SHA2_256) {
      const cache = this.#cache()
      const entry = this.#entry
      const at = cache.sha256At(entry)
      if (!cache.hasSha256(entry)) {
        digestInto(code, this.#modernText(), cache.bytes, at)
        cache.setHasSha256(entry)
      }
      return table.get(cache.bytes, at)
    }
    this.#others ??= new Map()
    let digest = this.#others.get(code)
    if (digest === undefined) {
      digest = new Uint8Array(digestWidth(code))
      digestInto(code, this.#modernText(), digest, 0)
      this.#others.set(code, digest)
    }
    return table.get(digest, 0)
  }

  #modernText(): Uint8Array | string {
    if (this.#cid) return modernCidText(this.#cid.multihash.bytes, this.path)
    const base = modernIpnsText(this.#name!)
    return this.path === '' ? base : `${base}/${this.path}`
  }

  /** The cache, this query's entry in it taken. */
  #cache(): QueryDigestCache {
    const cache = recentDigests()
    if (this.#entry < 0) this.#entry = this.#cid ? this.#keptEntry(cache, this.#cid) : cache.transient()
    return cache
  }

  /**
   * The entry kept for the multihash (`/path` after it): a multihash is self-delimiting, so
   * `key/path` cannot be another query's key. Names are not kept (rare), nor keys longer than
   * `MAX_KEY_BYTES`: a caller names the path, and the cache's bound is in entries.
   */
  #keptEntry(cache: QueryDigestCache, cid: CID): number {
    const multihash = cid.multihash.bytes
    let length = multihash.length
    if (length + (this.path === '' ? 0 : 1 + this.path.length) > MAX_KEY_BYTES) return cache.transient()
    const key = cache.key
    key.set(multihash)
    if (this.path !== '') {
      key[length++] = SLASH
      // UTF-8 of up to MAX_KEY_BYTES characters fits in the key's room; more bytes than that is too long
      length += key.write(this.path, length, 'utf8')
      if (length > MAX_KEY_BYTES) return cache.transient()
    }
    return cache.entry(length)
  }
}
