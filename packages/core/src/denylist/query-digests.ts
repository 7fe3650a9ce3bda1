/**
 * The double hashes of the CIDs (and paths) asked for lately. A gateway is asked for the same
 * CIDs again and again (every block of a popular file, per request), and a double-hashed rule can
 * only be found by hashing the query: keeping the digests makes a repeat lookup a map read.
 * Bounded by two generations of at most `capacity` entries each (an approximate LRU without the
 * per-read reordering a strict one pays): entries read in the current generation survive the next
 * turn-over, the rest are dropped with the older one.
 */
export class QueryDigests {
  /** The legacy digest and the codec of the CID it was computed for (it hashes the whole CIDv1). */
  legacy: string | undefined
  legacyCodec = -1
  /** sha2-256 modern digest (the common one); any other function's in `others`. */
  sha256: string | undefined
  others: Map<number, string> | undefined
}

export class DigestMemo {
  #current = new Map<string, QueryDigests>()
  #previous = new Map<string, QueryDigests>()

  constructor(readonly capacity: number) {}

  /** The digests kept for `key` (a CID's multihash, `/path` after it), new and empty when none are. */
  get(key: string): QueryDigests {
    const current = this.#current.get(key)
    if (current) return current
    const digests = this.#previous.get(key) ?? new QueryDigests()
    if (this.#current.size >= this.capacity) {
      this.#previous = this.#current
      this.#current = new Map()
    }
    this.#current.set(key, digests)
    return digests
  }

  /** How many entries are held (both generations; a key in both counts twice). */
  get size(): number {
    return this.#current.size + this.#previous.size
  }
}

/**
 * Shared by every list set in the process: a digest depends only on the query, never on the
 * lists. At most 2 × 16,384 entries of a few hundred bytes each: under 10 MiB.
 */
export const recentDigests = new DigestMemo(16_384)
