import { randomInt } from 'node:crypto'

/** What a double-hashed rule says once found: its line and whether it allows (`!`), its hints if any. */
export interface DigestRule {
  readonly line: number
  readonly allow: boolean
  readonly hints?: Readonly<Record<string, string>>
}

/** Per process, so a list cannot be written to make every digest land in the same probe chain. */
const SEED = randomInt(2 ** 31)

/** FNV-1a over the digest's bytes, seeded; the same number from the bytes and from their latin1 string. */
function hashBytes(bytes: Uint8Array, at: number, width: number): number {
  let hash = SEED
  for (let i = 0; i < width; i++) hash = Math.imul(hash ^ bytes[at + i]!, 0x01000193)
  return hash >>> 0
}
function hashText(text: string, width: number): number {
  let hash = SEED
  for (let i = 0; i < width; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/**
 * The double-hashed rules of one hash function, by digest, in flat typed arrays: badbits is
 * millions of them, and a JS string and a map entry per digest cost twice the bytes (and give the
 * collector millions of objects to trace). Digests are kept back to back in one byte array, in the
 * order added; an open-addressing table of their positions (linear probing, at most half full)
 * finds them; a rule is `line * 2 + allow` in a parallel array, one with hints beside them in a map.
 * Digests are looked up as latin1 strings (what `crypto.hash` gives without a Buffer). Lists only
 * grow or are replaced whole, so nothing is ever removed.
 */
export class DigestTable {
  #keys: Uint8Array
  #rules: Uint32Array
  #hinted: Map<number, DigestRule> | undefined
  #slots: Int32Array
  #count = 0

  /** `width`: the digest's length in bytes; a rule's digest of another length can match nothing and is not kept. */
  constructor(readonly width: number) {
    this.#keys = new Uint8Array(width * 64)
    this.#rules = new Uint32Array(64)
    this.#slots = new Int32Array(128)
  }

  get size(): number {
    return this.#count
  }

  /** Sets the rule of a digest (latin1); a later line with the same digest replaces the earlier one. */
  set(digest: string, rule: DigestRule): void {
    if (digest.length !== this.width) return
    let entry = this.#find(digest)
    if (entry < 0) entry = this.#append(digest)
    const packed = rule.line * 2 + (rule.allow ? 1 : 0)
    if (rule.hints || packed > 0xffffffff) {
      this.#hinted ??= new Map()
      this.#hinted.set(entry, rule)
    } else {
      this.#hinted?.delete(entry)
      this.#rules[entry] = packed
    }
  }

  get(digest: string): DigestRule | undefined {
    if (digest.length !== this.width) return undefined
    const entry = this.#find(digest)
    if (entry < 0) return undefined
    const hinted = this.#hinted?.get(entry)
    if (hinted) return hinted
    const packed = this.#rules[entry]!
    return { line: Math.floor(packed / 2), allow: packed % 2 === 1 }
  }

  #find(digest: string): number {
    const { width } = this
    const keys = this.#keys
    const mask = this.#slots.length - 1
    for (let slot = hashText(digest, width) & mask; ; slot = (slot + 1) & mask) {
      const held = this.#slots[slot]!
      if (held === 0) return -1
      const at = (held - 1) * width
      let i = 0
      while (i < width && keys[at + i] === digest.charCodeAt(i)) i++
      if (i === width) return held - 1
    }
  }

  #append(digest: string): number {
    const entry = this.#count++
    if (entry === this.#rules.length) {
      const keys = new Uint8Array(this.#keys.length * 2)
      keys.set(this.#keys)
      this.#keys = keys
      const rules = new Uint32Array(this.#rules.length * 2)
      rules.set(this.#rules)
      this.#rules = rules
    }
    this.#keys.set(Buffer.from(digest, 'latin1'), entry * this.width)
    if (this.#count * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2)
    else this.#place(entry)
    return entry
  }

  #place(entry: number): void {
    const mask = this.#slots.length - 1
    let slot = hashBytes(this.#keys, entry * this.width, this.width) & mask
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask
    this.#slots[slot] = entry + 1
  }

  #rehash(capacity: number): void {
    this.#slots = new Int32Array(capacity)
    for (let entry = 0; entry < this.#count; entry++) this.#place(entry)
  }
}
