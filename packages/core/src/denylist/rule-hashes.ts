import { hash } from 'node:crypto'
import { blake3 } from '@noble/hashes/blake3.js'

/**
 * The hash functions a modern double-hashed rule may use, by multicodec: the format lets a list
 * pick any, and NOpfs's test vectors use sha2-256 and blake3. Each writes the digest of a text's
 * bytes into `out` at `at`. `crypto.hash` is the one-shot digest, without the `Hash` object
 * `createHash` allocates per call (this runs once per request and block); its latin1 (`binary`)
 * string is a third of the cost of a Buffer result, which has to be allocated.
 */
const HASHES: ReadonlyMap<number, (bytes: Uint8Array, out: Uint8Array, at: number) => void> = new Map([
  [0x12, (bytes: Uint8Array, out: Uint8Array, at: number) => copyLatin1(hash('sha256', bytes, 'binary'), out, at)],
  [0x13, (bytes: Uint8Array, out: Uint8Array, at: number) => copyLatin1(hash('sha512', bytes, 'binary'), out, at)],
  [0x1e, (bytes: Uint8Array, out: Uint8Array, at: number) => out.set(blake3(bytes), at)],
])

function copyLatin1(text: string, out: Uint8Array, at: number): void {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i)
}

/** The length in bytes of each function's digest (blake3's default output). */
const WIDTHS: ReadonlyMap<number, number> = new Map([
  [0x12, 32],
  [0x13, 64],
  [0x1e, 32],
])

export function digestWidth(code: number): number {
  return WIDTHS.get(code) ?? 32
}

export function isSupportedHash(code: number): boolean {
  return HASHES.has(code)
}

/** Writes the digest of `text` (bytes, or a string as UTF-8) with hash function `code` into `out` at `at`. */
export function digestInto(code: number, text: Uint8Array | string, out: Uint8Array, at: number): void {
  const digest = HASHES.get(code)
  if (!digest) throw new Error(`hash function 0x${code.toString(16)} is not supported`)
  digest(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, out, at)
}
