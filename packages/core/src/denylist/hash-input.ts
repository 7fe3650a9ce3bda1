/**
 * The texts double-hashed rules hash (`CIDv1-in-base32/path`, `base58btc-multihash[/path]`),
 * written as bytes straight into one reused buffer and hashed from there. multiformats' encoders
 * build the same text a character at a time as a JS string, which then has to be flattened and
 * encoded again for the hash: most of a cold lookup's cost, run once per request and block. The
 * tests check every byte against multiformats' own `base32`/`base58btc` encoders.
 */

const BASE32 = Buffer.from('abcdefghijklmnopqrstuvwxyz234567', 'latin1')
const BASE58 = Buffer.from('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 'latin1')
/** Five base58 digits per limb: a limb times 256 plus a byte stays an exact integer in a double. */
const LIMB = 58 ** 5

let scratch = Buffer.allocUnsafe(1024)
let limbs = new Float64Array(64)

/** A buffer of at least `size` bytes to write a text into (the previous text is gone). */
function room(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2))
  return scratch
}

/** `b` + RFC 4648 base32 (lower case, no padding) of the CID's bytes: a CIDv1's multibase text. */
function writeBase32Multibase(bytes: Uint8Array, out: Buffer, at: number): number {
  out[at++] = 0x62 // 'b'
  let buffer = 0
  let bits = 0
  for (let i = 0; i < bytes.length; i++) {
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

/** base58btc of `bytes` (no multibase prefix), as base-x writes it: a `1` per leading zero byte. */
function writeBase58(bytes: Uint8Array, out: Buffer, at: number): number {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  if (limbs.length < bytes.length) limbs = new Float64Array(bytes.length)
  // the number, little-endian in base 58^5
  let size = 0
  for (let i = zeros; i < bytes.length; i++) {
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
  out.fill(0x31, at, at + zeros)
  at += zeros
  for (let j = size - 1; j >= 0; j--) {
    let limb = limbs[j]!
    // every limb but the top one is written with all five digits
    const digits = j === size - 1 ? digitCount(limb) : 5
    for (let d = digits - 1; d >= 0; d--) {
      out[at + d] = BASE58[limb % 58]!
      limb = Math.floor(limb / 58)
    }
    at += digits
  }
  return at
}

function digitCount(limb: number): number {
  let digits = 1
  while (limb >= 58) {
    limb = Math.floor(limb / 58)
    digits++
  }
  return digits
}

/** `/path` after the base, when there is a path (UTF-8). */
function writePath(path: string, out: Buffer, at: number, always: boolean): number {
  if (path === '' && !always) return at
  out[at++] = 0x2f
  return at + out.write(path, at, 'utf8')
}

/** The legacy (badbits) text of a CID: `CIDv1-in-base32/path` (`…/` for the root). `cidV1` is the CIDv1's bytes. */
export function legacyCidText(cidV1: Uint8Array, path: string): Uint8Array {
  const out = room(2 + Math.ceil((cidV1.length * 8) / 5) + 3 * path.length + 1)
  const end = writePath(path, out, writeBase32Multibase(cidV1, out, 0), true)
  return out.subarray(0, end)
}

/** The modern text of a CID: its multihash in base58btc, then `/path` when there is one. */
export function modernCidText(multihash: Uint8Array, path: string): Uint8Array {
  const out = room(2 * multihash.length + 3 * path.length + 1)
  const end = writePath(path, out, writeBase58(multihash, out, 0), false)
  return out.subarray(0, end)
}
