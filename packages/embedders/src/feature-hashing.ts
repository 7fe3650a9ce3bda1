/**
 * Signed feature hashing (Weinberger et al., 2009): maps an unbounded vocabulary of tokens into a
 * fixed number of dimensions. The sign bit makes collisions cancel out on average instead of adding up.
 */
export function addHashedFeature(target: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature)
  const sign = hash & 0x80000000 ? -1 : 1
  target[(hash & 0x7fffffff) % target.length]! += sign * weight
}

/** 32-bit FNV-1a over UTF-16 code units: tiny, stable across versions and platforms. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
