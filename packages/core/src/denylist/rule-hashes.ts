import { createHash } from 'node:crypto'
import { blake3 } from '@noble/hashes/blake3.js'

/**
 * The hash functions a modern double-hashed rule may use, by multicodec: the format lets a list
 * pick any, and NOpfs's test vectors use sha2-256 and blake3.
 */
const HASHES: ReadonlyMap<number, (text: string) => Uint8Array> = new Map([
  [0x12, (text: string) => createHash('sha256').update(text).digest()],
  [0x13, (text: string) => createHash('sha512').update(text).digest()],
  [0x1e, (text: string) => blake3(Buffer.from(text))],
])

export function isSupportedHash(code: number): boolean {
  return HASHES.has(code)
}

/** The digest of `text` (UTF-8) with hash function `code`, as latin1 (a map key). */
export function digestKey(code: number, text: string): string {
  const hash = HASHES.get(code)
  if (!hash) throw new Error(`hash function 0x${code.toString(16)} is not supported`)
  const digest = hash(text)
  return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('latin1')
}
