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
  readonly #legacyBase: () => string
  readonly #modernBase: () => string
  #legacy: string | undefined
  readonly #modern = new Map<number, string>()

  constructor(query: DenyQuery) {
    this.namespace = query.namespace
    this.path = trimSlashes(query.path ?? '')
    if (query.namespace === 'ipfs') {
      const { cid } = query
      this.key = latin1(cid.multihash.bytes)
      // badbits hashes `CIDv1 in base32/path`; the modern form the base58btc multihash
      this.#legacyBase = () => cid.toV1().toString()
      this.#modernBase = () => base58btc.baseEncode(cid.multihash.bytes)
    } else {
      const name: IpnsName = normalizeIpnsName(query.name)
      this.key = name.key
      this.#legacyBase = () => legacyIpnsText(name)
      this.#modernBase = () => modernIpnsText(name)
    }
  }

  /** sha256 of `base/path` (`base/` for the root), as latin1. */
  legacyKey(): string {
    this.#legacy ??= digestKey(0x12, `${this.#legacyBase()}/${this.path}`)
    return this.#legacy
  }

  /** The digest with hash function `code` of `base[/path]`, as latin1. */
  modernKey(code: number): string {
    let key = this.#modern.get(code)
    if (key === undefined) {
      key = digestKey(code, this.path === '' ? this.#modernBase() : `${this.#modernBase()}/${this.path}`)
      this.#modern.set(code, key)
    }
    return key
  }
}
