import { randomInt } from 'node:crypto'

/** What a double-hashed rule says once found: its line and whether it allows (`!`), its hints if any. */
export interface DigestRule {
  readonly line: number
  readonly allow: boolean
  readonly hints?: Readonly<Record<string, string>>
}

/** Per process, so a list cannot be written to make every digest land in the same probe chain. */
const SEED = randomInt(2 ** 31)

/** FNV-1a over the digest's bytes, seeded. */
function hashBytes(bytes: Uint8Array, at: number, width: number): number {
  let hash = SEED
  for (let i = 0; i < width; i++) hash = Math.imul(hash ^ bytes[at + i]!, 0x01000193)
  return hash >>> 0
}

/**
 * The double-hashed rules of one hash function, by digest, in flat typed arrays: badbits is
 * millions of them, and a JS string and a map entry per digest cost twice the bytes (and give the
 * collector millions of objects to trace). Digests are kept back to back in one byte array, in the
 * order added; an open-addressing table of their positions (linear probing, at most half full)
 * finds them. A slot holds `entry + 1` in its low bits (an entry is below half the slots) and the
 * digest's hash in the bits above, a fingerprint: a probe reads a digest's bytes (a cache miss
 * each) only when it matches, so a miss mostly reads none. A rule is `line * 2 + allow` in a
 * parallel array, one with hints beside them in a map. Rules come as latin1 strings (as a list is
 * parsed); lookups give bytes (where the query's digest was written), so a lookup makes no string.
 * Lists only grow or are replaced whole, so nothing is ever removed.
 */
export class DigestTable {
  #keys: Uint8Array
  #rules: Uint32Array
  #hinted: Map<number, DigestRule> | undefined
  #slots: Int32Array
  #count = 0
  /** A rule's digest as bytes, while it is set. */
  readonly #added: Uint8Array

  /** `width`: the digest's length in bytes; a rule's digest of another length can match nothing and is not kept. */
  constructor(readonly width: number) {
    this.#keys = new Uint8Array(width * 64)
    this.#rules = new Uint32Array(64)
    this.#slots = new Int32Array(128)
    this.#added = new Uint8Array(width)
  }

  get size(): number {
    return this.#count
  }

  /** Sets the rule of a digest (latin1); a later line with the same digest replaces the earlier one. */
  set(digest: string, rule: DigestRule): void {
    if (digest.length !== this.width) return
    const added = this.#added
    for (let i = 0; i < digest.length; i++) added[i] = digest.charCodeAt(i)
    let entry = this.#find(added, 0)
    if (entry < 0) entry = this.#append(added)
    const packed = rule.line * 2 + (rule.allow ? 1 : 0)
    if (rule.hints || packed > 0xffffffff) {
      this.#hinted ??= new Map()
      this.#hinted.set(entry, rule)
    } else {
      this.#hinted?.delete(entry)
      this.#rules[entry] = packed
    }
  }

  /** The rule of the digest in `bytes[at, at + width)`. */
  get(bytes: Uint8Array, at: number): DigestRule | undefined {
    const entry = this.#find(bytes, at)
    if (entry < 0) return undefined
    const hinted = this.#hinted?.get(entry)
    if (hinted) return hinted
    const packed = this.#rules[entry]!
    return { line: Math.floor(packed / 2), allow: packed % 2 === 1 }
  }

  #find(bytes: Uint8Array, from: number): number {
    const { width } = this
    const keys = this.#keys
    const slots = this.#slots
    const mask = slots.length - 1
    const hash = hashBytes(bytes, from, width)
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot]!
      if (held === 0) return -1
      // another digest's fingerprint: its bytes need not be read (a miss reads no digest at all, mostly)
      if (((held ^ hash) & ~mask) !== 0) continue
      const entry = (held & mask) - 1
      const at = entry * width
      let i = 0
      while (i < width && keys[at + i] === bytes[from + i]) i++
      if (i === width) return entry
    }
  }

  #append(digest: Uint8Array): number {
    const entry = this.#count++
    if (entry === this.#rules.length) {
      const keys = new Uint8Array(this.#keys.length * 2)
      keys.set(this.#keys)
      this.#keys = keys
      const rules = new Uint32Array(this.#rules.length * 2)
      rules.set(this.#rules)
      this.#rules = rules
    }
    this.#keys.set(digest, entry * this.width)
    if (this.#count * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2)
    else this.#place(entry)
    return entry
  }

  #place(entry: number): void {
    const mask = this.#slots.length - 1
    const hash = hashBytes(this.#keys, entry * this.width, this.width)
    let slot = hash & mask
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask
    this.#slots[slot] = (hash & ~mask) | (entry + 1)
  }

  #rehash(capacity: number): void {
    this.#slots = new Int32Array(capacity)
    for (let entry = 0; entry < this.#count; entry++) this.#place(entry)
  }
}
