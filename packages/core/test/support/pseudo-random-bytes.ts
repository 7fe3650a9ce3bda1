import { createCipheriv, createHash } from 'node:crypto'

/** `size` pseudo-random bytes, the same for the same `seed` (a ChaCha20 key stream). */
export function chacha(seed: string, size: number): Uint8Array {
  const key = createHash('sha256').update(seed).digest()
  return new Uint8Array(createCipheriv('chacha20', key, Buffer.alloc(16)).update(Buffer.alloc(size)))
}

/** `bytes` in pieces of pseudo-random sizes in [1, maxPiece], reproducibly from `seed`. */
export function* pieces(bytes: Uint8Array, seed: string, maxPiece: number): Generator<Uint8Array> {
  const sizes = chacha(`${seed}/sizes`, 4 * (bytes.length + 1))
  const view = new DataView(sizes.buffer)
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = 1 + (view.getUint32(4 * i) % maxPiece)
    yield bytes.subarray(at, at + size)
    at += size
  }
}

export async function* stream(chunks: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* chunks
}
