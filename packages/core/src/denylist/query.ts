import { base58btc } from 'multiformats/bases/base58'
import type { CID } from 'multiformats/cid'
import { type IpnsName, latin1, legacyIpnsText, modernIpnsText, normalizeIpnsName } from './ipns-name.js'
import { trimSlashes } from './path-spec.js'
import { digestKey } from './rule-hashes.js'

/** What is asked for: content by CID (and a path below it), or an IPNS name (and a path). */
export type DenyQuery =
  | { readonly namespace: 'ipfs'; readonly cid: CID; readonly path?: string }
  | { readonly namespace: 'ipns'; readonly name: string; readonly path?: string }

/**
 * A query with the keys rules are indexed by: the multihash (or IPNS name) at once, the texts a
 * double-hashed rule hashes only when a list has such rules, each computed once per query however
 * many lists ask.
 */
export class PreparedQuery {
  readonly namespace: 'ipfs' | 'ipns'
  /** The CID's multihash bytes as latin1, or the IPNS name's normal form. */
  readonly key: string
  readonly path: string
  // fields, not closures, and the digest map made only when asked: this runs per block served,
  // and what it allocates is most of its cost
  readonly #cid: CID | undefined
  readonly #name: IpnsName | undefined
  #legacy: string | undefined
  #modern: Map<number, string> | undefined

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

  /** badbits hashes `CIDv1 in base32/path`, a key as a CIDv1, a domain as is. */
  #legacyBase(): string {
    return this.#cid ? this.#cid.toV1().toString() : legacyIpnsText(this.#name!)
  }

  /** The modern form hashes the base58btc multihash (of a CID or a key), or `/ipns/domain`. */
  #modernBase(): string {
    return this.#cid ? base58btc.baseEncode(this.#cid.multihash.bytes) : modernIpnsText(this.#name!)
  }

  /** sha256 of `base/path` (`base/` for the root), as latin1. */
  legacyKey(): string {
    this.#legacy ??= digestKey(0x12, `${this.#legacyBase()}/${this.path}`)
    return this.#legacy
  }

  /** The digest with hash function `code` of `base[/path]`, as latin1. */
  modernKey(code: number): string {
    this.#modern ??= new Map()
    let key = this.#modern.get(code)
    if (key === undefined) {
      key = digestKey(code, this.path === '' ? this.#modernBase() : `${this.#modernBase()}/${this.path}`)
      this.#modern.set(code, key)
    }
    return key
  }
}
