import { hash } from 'node:crypto'
import { blake3 } from '@noble/hashes/blake3.js'

/**
 * The hash functions a modern double-hashed rule may use, by multicodec: the format lets a list
 * pick any, and NOpfs's test vectors use sha2-256 and blake3. Each gives the digest of a text's
 * UTF-8 bytes as a latin1 (`binary`) string, the form the index keys by; `crypto.hash` is the
 * one-shot digest, without the `Hash` object `createHash` allocates per call (this runs once per
 * request and block).
 */
const HASHES: ReadonlyMap<number, (bytes: Uint8Array) => string> = new Map([
  [0x12, (bytes: Uint8Array) => hash('sha256', bytes, 'binary')],
  [0x13, (bytes: Uint8Array) => hash('sha512', bytes, 'binary')],
  [0x1e, (bytes: Uint8Array) => Buffer.from(blake3(bytes)).toString('latin1')],
])

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

/** The digest of `text` (UTF-8 bytes, or a string) with hash function `code`, as latin1 (a map key). */
export function digestKey(code: number, text: Uint8Array | string): string {
  const digest = HASHES.get(code)
  if (!digest) throw new Error(`hash function 0x${code.toString(16)} is not supported`)
  return digest(typeof text === 'string' ? Buffer.from(text, 'utf8') : text)
}
