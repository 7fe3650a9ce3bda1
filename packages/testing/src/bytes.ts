import { computeFileCid } from '@pinfold/core'

/** The CID Kubo's `ipfs add` (defaults, raw leaves for v1) gives these bytes. */
export async function kuboCid(bytes: Uint8Array, version: 'v0' | 'v1' = 'v1'): Promise<string> {
  const content = (async function* () {
    yield bytes
  })()
  return (await computeFileCid(content, version)).toString()
}

/** `size` deterministic bytes that never repeat within a 256 KiB chunk (a byte-mixing counter). */
export function patternBytes(size: number, seed = 1): Uint8Array {
  const out = new Uint8Array(size)
  let x = seed >>> 0 || 1
  for (let i = 0; i < size; i++) {
    // xorshift32: cheap, deterministic, no period inside any realistic upload
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

export const HELLO_WORLD_CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'

/**
 * Byte equality without vitest's element-by-element diff, which takes seconds on large arrays (and
 * stalls the event loop long enough for an idle keep-alive socket to go stale).
 */
export async function bytesOf(data: unknown): Promise<Buffer> {
  if (data instanceof Blob) return Buffer.from(await data.arrayBuffer())
  if (data instanceof Uint8Array) return Buffer.from(data)
  throw new Error(`not bytes: ${typeof data}`)
}
