import { randomInt } from 'node:crypto'

/**
 * An entry is one record of 128 bytes (two cache lines), everything a lookup reads side by side:
 * the key's length, the sha2-256 flag and the set's recency (way 0's record) at 0–2, the legacy
 * digest's codec (int32) at 4, the key at 8, the legacy digest at 64, the modern sha2-256 one at 96.
 */
const RECORD = 128
const KEY_AT = 8
const LEGACY_AT = 64
const SHA256_AT = 96
/** The longest key kept: a multihash, or a multihash, `/` and a path, in bytes (longer ones are hashed each time). */
export const MAX_KEY_BYTES = LEGACY_AT - KEY_AT

/** Per process, so requests cannot be chosen to land every CID in the same set and evict a popular one. */
const SEED = randomInt(2 ** 31)

/**
 * The double hashes of the CIDs (and `cid/path`s) asked for lately. A gateway is asked for the
 * same CIDs again and again (every block of a popular file, per request), and a double-hashed rule
 * can only be found by hashing the query: keeping the digests makes a repeat lookup a table read.
 *
 * One typed array allocated once: a lookup allocates nothing here and leaves nothing for the
 * collector (a map of a string and an object per query, kept long enough to be promoted, made the
 * collector's work the cold lookups' p99). Two-way set associative: a key (the multihash's bytes,
 * `/path` after them) can only be in the two entries of its set; a new key takes the one of the
 * two read least lately. Keys longer than `MAX_KEY_BYTES` are not kept.
 *
 * An entry is only good until the next `entry()` or `transient()` call: a query takes its entry and
 * uses it before the next query is prepared (lookups are synchronous).
 */
export class QueryDigestCache {
  readonly #mask: number
  /** The records; digests are read from here (at `legacyAt`, `sha256At`). */
  readonly bytes: Uint8Array
  /** The same memory as int32s, for the legacy digest's codec. */
  readonly #ints: Int32Array
  /** The entry a query that is not kept uses (the last one). */
  readonly #transient: number
  /** Where the caller writes the key to look up (room for a longer path, to tell it is too long). */
  readonly key = Buffer.alloc(MAX_KEY_BYTES * 4)

  /** `sets`: a power of two; the cache holds twice as many entries. */
  constructor(sets: number) {
    this.#mask = sets - 1
    this.#transient = 2 * sets
    this.bytes = new Uint8Array((2 * sets + 1) * RECORD)
    this.#ints = new Int32Array(this.bytes.buffer)
    for (let entry = 0; entry <= this.#transient; entry++) this.#clear(entry)
  }

  /** How many entries hold a key. */
  get size(): number {
    let size = 0
    for (let entry = 0; entry < this.#transient; entry++) if (this.bytes[entry * RECORD] !== 0) size++
    return size
  }

  /**
   * The entry kept for the key written in `key[0, length)` (`0 < length <= MAX_KEY_BYTES`), taken
   * (and its digests cleared) when there is none.
   */
  entry(length: number): number {
    const { key, bytes } = this
    let hash = SEED
    for (let i = 0; i < length; i++) hash = Math.imul(hash ^ key[i]!, 0x01000193)
    const first = ((hash >>> 0) & this.#mask) * 2
    const recent = first * RECORD + 2
    for (let way = 0; way < 2; way++) {
      const record = (first + way) * RECORD
      if (bytes[record] !== length) continue
      let i = 0
      while (i < length && bytes[record + KEY_AT + i] === key[i]) i++
      if (i === length) {
        bytes[recent] = way
        return first + way
      }
    }
    const way = bytes[first * RECORD] === 0 ? 0 : 1 - bytes[recent]!
    bytes[recent] = way
    const entry = first + way
    const record = entry * RECORD
    bytes[record] = length
    for (let i = 0; i < length; i++) bytes[record + KEY_AT + i] = key[i]!
    this.#clear(entry)
    return entry
  }

  /** The entry for a query whose digests are not kept (an IPNS name, a long path), cleared. */
  transient(): number {
    this.#clear(this.#transient)
    return this.#transient
  }

  /** Where the entry's legacy digest is in `bytes`. */
  legacyAt(entry: number): number {
    return entry * RECORD + LEGACY_AT
  }

  /** The codec of the CID the legacy digest is of (badbits hashes the whole CIDv1), -1 when there is none yet. */
  legacyCodec(entry: number): number {
    return this.#ints[entry * (RECORD / 4) + 1]!
  }

  setLegacyCodec(entry: number, codec: number): void {
    this.#ints[entry * (RECORD / 4) + 1] = codec
  }

  /** Where the entry's modern sha2-256 digest is in `bytes`. */
  sha256At(entry: number): number {
    return entry * RECORD + SHA256_AT
  }

  hasSha256(entry: number): boolean {
    return this.bytes[entry * RECORD + 1] === 1
  }

  setHasSha256(entry: number): void {
    this.bytes[entry * RECORD + 1] = 1
  }

  #clear(entry: number): void {
    this.setLegacyCodec(entry, -1)
    this.bytes[entry * RECORD + 1] = 0
  }
}

let shared: QueryDigestCache | undefined

/**
 * The process's cache, made on the first lookup that needs a double hash (a process without a
 * double-hashed rule never holds it): 2 × 16,384 entries of 128 bytes, 4 MiB. Shared by every
 * list set: a digest depends only on the query, never on the lists.
 */
export function recentDigests(): QueryDigestCache {
  shared ??= new QueryDigestCache(16_384)
  return shared
}
