import { PinfoldError } from '@pinfold/interface'

/** Scales `vector` in place to unit length; an all-zero vector stays zero (it has no direction). */
export function l2Normalize(vector: Float32Array): Float32Array {
  let sum = 0
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!
  if (sum === 0) return vector
  const scale = 1 / Math.sqrt(sum)
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale
  return vector
}

/**
 * Throws a clear `INVALID_INPUT` when a model returned vectors of another size than configured,
 * the usual sign of a wrong `dimensions` setting; storing them would corrupt the vector index.
 */
export function assertDimensions(vector: ArrayLike<number>, expected: number, embedderId: string): void {
  if (vector.length !== expected) {
    throw new PinfoldError(
      'INVALID_INPUT',
      `embedder ${embedderId} returned a ${vector.length}-dimensional vector but is configured for ${expected} dimensions`,
      { details: { expected, actual: vector.length } },
    )
  }
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    const y = b[i]!
    dot += x * y
    na += x * x
    nb += y * y
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}
