import { PinfoldError } from '../errors.js'
import type { VectorEmbedding } from '../ports/vector-records.js'

/** Most matches one query returns (the spec's limit). */
export const MAX_VECTOR_QUERY_LIMIT = 20

export function sameEmbedding(a: VectorEmbedding, b: VectorEmbedding): boolean {
  return a.embedderId === b.embedderId && a.dimensions === b.dimensions
}

/**
 * The `CONFLICT` every vector store raises when a call's embedder differs from the one the stored
 * vectors came from. Shared so that every adapter tells the operator the same thing.
 */
export function embeddingMismatch(stored: VectorEmbedding, given: VectorEmbedding): PinfoldError {
  return new PinfoldError(
    'CONFLICT',
    `the vector index holds vectors of embedder "${stored.embedderId}" (${stored.dimensions} dimensions), ` +
      `but the configured embedder is "${given.embedderId}" (${given.dimensions} dimensions); configure the ` +
      'original embedder again, or reset the vector index and re-vectorize the files',
    { details: { stored, given } },
  )
}

/** Rejects an embedding description a store could not index. */
export function checkEmbedding(embedding: VectorEmbedding): void {
  if (typeof embedding?.embedderId !== 'string' || embedding.embedderId === '') {
    throw new PinfoldError('INVALID_INPUT', 'the embedder id must be a non-empty string')
  }
  if (!Number.isInteger(embedding.dimensions) || embedding.dimensions <= 0) {
    throw new PinfoldError(
      'INVALID_INPUT',
      `embedder dimensions must be a positive integer, got ${embedding.dimensions}`,
    )
  }
}

/** Each vector has `dimensions` finite values, not all zero (cosine similarity needs a direction). */
export function checkVector(vector: Float32Array, dimensions: number, what = 'vector'): void {
  if (!(vector instanceof Float32Array) || vector.length !== dimensions) {
    throw new PinfoldError(
      'INVALID_INPUT',
      `${what} has ${(vector as { length?: unknown })?.length ?? 'no'} dimensions; the embedder's vectors have ${dimensions}`,
    )
  }
  let nonZero = false
  for (const value of vector) {
    if (!Number.isFinite(value)) throw new PinfoldError('INVALID_INPUT', `${what} holds a non-finite value`)
    if (value !== 0) nonZero = true
  }
  if (!nonZero) throw new PinfoldError('INVALID_INPUT', `${what} is all zeros and has no direction`)
}

/** `upsertFileVectors`' refusal past `maxVectorizedFiles`, worded alike by every adapter. */
export function vectorizedExceeded(max: number): PinfoldError {
  return new PinfoldError('QUOTA_EXCEEDED', `vectorized file limit reached: the account may vectorize ${max} files`)
}
