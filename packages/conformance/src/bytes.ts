/** Deterministic, non-repeating test bytes: a different seed gives different content. */
export function patternBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length)
  let x = (seed * 2654435761) >>> 0 || 1
  for (let i = 0; i < length; i++) {
    // xorshift32: cheap, and never produces the long runs that would hide off-by-one slicing bugs
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

export async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  let total = 0
  for await (const part of source) {
    parts.push(part)
    total += part.length
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
