/**
 * The texts double-hashed rules hash (`CIDv1-in-base32/path`, `base58btc-multihash[/path]`),
 * written as bytes straight into one reused buffer and hashed from there. multiformats' encoders
 * build the same text a character at a time as a JS string, which then has to be flattened and
 * encoded again for the hash: most of a cold lookup's cost, run once per request and block. The
 * tests check every byte against multiformats' own `base32`/`base58btc` encoders.
 */

import type { CID } from 'multiformats/cid'

const DAG_PB = 0x70
const BASE32 = Buffer.from('abcdefghijklmnopqrstuvwxyz234567', 'latin1')
const BASE58 = Buffer.from('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 'latin1')
/** Five base58 digits per limb: a limb times 2^16 plus a carry stays an exact integer in a double. */
const LIMB = 58 ** 5
/**
 * Numbers of up to this many 16-bit words (a multihash of up to 80 bytes: sha2-512's is 66) are
 * converted by weights: a sum of up to 40 products of a word (< 2^16) and a limb (< 58^5 < 2^29.3)
 * stays below 2^53, exact in a double.
 */
const MAX_WORDS = 40
/** Limbs of the largest weight, 2^(16 * 39), and one for the carries. */
const MAX_LIMBS = Math.ceil((16 * MAX_WORDS) / Math.log2(LIMB)) + 1
/** `WEIGHTS[k * MAX_LIMBS + j]`: limb j of 2^16k in base 58^5. */
const WEIGHTS = new Float64Array(MAX_WORDS * MAX_LIMBS)
/** `WEIGHT_SIZES[k]`: how many limbs 2^16k has. */
const WEIGHT_SIZES = new Int32Array(MAX_WORDS)
{
  const weight = new Float64Array(MAX_LIMBS)
  weight[0] = 1
  let size = 1
  for (let k = 0; k < MAX_WORDS; k++) {
    WEIGHTS.set(weight.subarray(0, size), k * MAX_LIMBS)
    WEIGHT_SIZES[k] = size
    // times 2^16
    let carry = 0
    for (let j = 0; j < size; j++) {
      const x = weight[j]! * 65_536 + carry
      carry = Math.floor(x / LIMB)
      weight[j] = x - carry * LIMB
    }
    if (carry > 0) weight[size++] = carry
  }
}

let scratch = Buffer.allocUnsafe(1024)
/** Views of `scratch`'s first n bytes, by n: the text to hash without a new view per lookup. */
let views: Uint8Array[] = []
let limbs = new Float64Array(MAX_LIMBS)
/** A CIDv0's bytes as the CIDv1 (dag-pb) it is. */
let v1 = new Uint8Array(128)

/** Views are kept for texts up to this long (a CID's, with a short path); longer ones get their own. */
const MAX_KEPT_VIEW = 512

/** A buffer of at least `size` bytes to write a text into (the previous text is gone). */
function room(size: number): Buffer {
  if (scratch.length < size) {
    scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2))
    views = []
  }
  return scratch
}

/** The text written in `scratch[0, end)`. */
function written(end: number): Uint8Array {
  if (end > MAX_KEPT_VIEW) return scratch.subarray(0, end)
  let view = views[end]
  if (view === undefined) {
    view = new Uint8Array(scratch.buffer, scratch.byteOffset, end)
    views[end] = view
  }
  return view
}

/** `b` + RFC 4648 base32 (lower case, no padding) of `bytes[0, length)`: a CIDv1's multibase text. */
function writeBase32Multibase(bytes: Uint8Array, length: number, out: Buffer, at: number): number {
  out[at++] = 0x62 // 'b'
  let buffer = 0
  let bits = 0
  for (let i = 0; i < length; i++) {
    buffer = ((buffer << 8) | bytes[i]!) & 0xffff
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out[at++] = BASE32[(buffer >> bits) & 31]!
    }
  }
  if (bits > 0) out[at++] = BASE32[(buffer << (5 - bits)) & 31]!
  return at
}

/**
 * base58btc of `bytes` (no multibase prefix), as base-x writes it: a `1` per leading zero byte,
 * then the number's digits. The number is taken 16 bits at a time, each 16-bit word times its
 * weight (2^16k, precomputed in base 58^5) summed into the limbs, then the carries run once: a
 * few hundred independent multiply-adds instead of a division per byte per limb, each waiting for
 * the last (the textbook conversion is most of a modern cold lookup's cost). Numbers longer than
 * `MAX_WORDS` words (an inlined CID's identity multihash) take the textbook way.
 */
function writeBase58(bytes: Uint8Array, out: Buffer, at: number): number {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  for (let i = 0; i < zeros; i++) out[at++] = 0x31
  const size = bytes.length - zeros > 2 * MAX_WORDS ? limbsOneByOne(bytes, zeros) : limbsByWords(bytes, zeros)
  for (let j = size - 1; j >= 0; j--) {
    let limb = limbs[j]!
    // every limb but the top one is written with all five digits (a limb < 58^5 < 2^31: int32 division)
    const digits = j === size - 1 ? digitCount(limb) : 5
    for (let d = digits - 1; d >= 0; d--) {
      const next = (limb / 58) | 0
      out[at + d] = BASE58[limb - next * 58]!
      limb = next
    }
    at += digits
  }
  return at
}

/** The number in `bytes[from..]`, little-endian in base 58^5 in `limbs`; its size in limbs. */
function limbsByWords(bytes: Uint8Array, from: number): number {
  const words = (bytes.length - from + 1) >> 1
  if (words === 0) return 0
  // the limbs the number can reach: the highest weight's, and one for the carries
  const reach = WEIGHT_SIZES[words - 1]! + 1
  for (let j = 0; j < reach; j++) limbs[j] = 0
  for (let k = 0; k < words; k++) {
    const low = bytes.length - 1 - 2 * k
    const word = (low - 1 >= from ? bytes[low - 1]! << 8 : 0) | bytes[low]!
    if (word === 0) continue
    const weight = k * MAX_LIMBS
    for (let j = 0, end = WEIGHT_SIZES[k]!; j < end; j++) limbs[j]! += word * WEIGHTS[weight + j]!
  }
  let carry = 0
  for (let j = 0; j < reach; j++) {
    const x = limbs[j]! + carry
    carry = Math.floor(x / LIMB)
    limbs[j] = x - carry * LIMB
  }
  let size = reach
  while (size > 0 && limbs[size - 1] === 0) size--
  return size
}

/** The same number the textbook way, a byte at a time (any length). */
function limbsOneByOne(bytes: Uint8Array, from: number): number {
  if (limbs.length < bytes.length) limbs = new Float64Array(bytes.length)
  let size = 0
  for (let i = from; i < bytes.length; i++) {
    let carry = bytes[i]!
    for (let j = 0; j < size; j++) {
      const x = limbs[j]! * 256 + carry
      carry = Math.floor(x / LIMB)
      limbs[j] = x - carry * LIMB
    }
    while (carry > 0) {
      const next = Math.floor(carry / LIMB)
      limbs[size++] = carry - next * LIMB
      carry = next
    }
  }
  return size
}

function digitCount(limb: number): number {
  let digits = 1
  while (limb >= 58) {
    limb = (limb / 58) | 0
    digits++
  }
  return digits
}

/** `/path` after the base, when there is a path (UTF-8). */
function writePath(path: string, out: Buffer, at: number, always: boolean): number {
  if (path === '') {
    if (always) out[at++] = 0x2f
    return at
  }
  out[at++] = 0x2f
  return at + out.write(path, at, 'utf8')
}

/**
 * The legacy (badbits) text of a CID: `CIDv1-in-base32/path` (`…/` for the root), a CIDv0 written
 * as the CIDv1 (dag-pb) it is. Good until the next text is written.
 */
export function legacyCidText(cid: CID, path: string): Uint8Array {
  let bytes = cid.bytes
  let length = bytes.length
  if (cid.version === 0) {
    const multihash = cid.multihash.bytes
    length = 2 + multihash.length
    if (v1.length < length) v1 = new Uint8Array(length)
    v1[0] = 1
    v1[1] = DAG_PB
    v1.set(multihash, 2)
    bytes = v1
  }
  const out = room(2 + Math.ceil((length * 8) / 5) + 3 * path.length + 1)
  return written(writePath(path, out, writeBase32Multibase(bytes, length, out, 0), true))
}

/** The modern text of a CID: its multihash in base58btc, then `/path` when there is one. Good until the next text is written. */
export function modernCidText(multihash: Uint8Array, path: string): Uint8Array {
  const out = room(2 * multihash.length + 3 * path.length + 1)
  return written(writePath(path, out, writeBase58(multihash, out, 0), false))
}
