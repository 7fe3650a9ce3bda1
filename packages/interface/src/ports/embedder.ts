import type { CallOptions } from '../call-options.js'

/**
 * Turns text into unit-length vectors whose cosine similarity reflects meaning. `id` names the
 * model and its settings; a vector index built with one `id` must not be queried with another.
 */
export interface Embedder {
  readonly id: string
  readonly dimensions: number
  /**
   * One vector per text, in order, each of length `dimensions` and L2-normalised.
   * `purpose` lets asymmetric models embed queries and documents differently.
   */
  embed(texts: readonly string[], options?: CallOptions & { purpose?: 'document' | 'query' }): Promise<Float32Array[]>
}
