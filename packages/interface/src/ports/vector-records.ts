import type { CallOptions } from '../call-options.js'
import type { FileRecord, Network } from '../model.js'
import type { RecordedOptions } from './event-records.js'

/**
 * Which embedder produced the vectors of an index. Vectors of different embedders (or sizes) are not
 * comparable, so an index accepts one embedder: the first `upsertFileVectors` records it.
 */
export interface VectorEmbedding {
  /** `Embedder.id`. */
  embedderId: string
  /** `Embedder.dimensions`: the length of every vector. */
  dimensions: number
}

export interface VectorQuery {
  tenantId: string
  network: Network
  groupId: string
  /** The query text's vector: `embedding.dimensions` long, not all zeros. */
  vector: Float32Array
  /** Most files returned; at least 1. */
  limit: number
}

export interface VectorMatch {
  fileId: string
  cid: string
  /** Cosine similarity (−1…1) of the query and the file's best-matching passage. */
  score: number
}

/**
 * The semantic vectors of files: one vector per passage of a file's text. Vectors belong to the file
 * record, never to a copy of its group or tenant: a query ranks the vectors of the files that are in
 * the group *at query time*, so moving a file between groups moves its vectors, deleting the file
 * (or its tenant's access to it) removes them, and tenants never see each other's vectors.
 *
 * Embedder rules, shared by every method taking a {@link VectorEmbedding}: while the store holds no
 * embedder, upserting records the given one (concurrent first upserts agree on exactly one); a call
 * with another `embedderId` or `dimensions` than the recorded one rejects with `CONFLICT`, naming
 * both, and changes nothing (`resetVectorIndex` forgets the embedder). A vector of the wrong length,
 * with a non-finite value or all zeros is `INVALID_INPUT`.
 *
 * An adapter that cannot store vectors (PostgreSQL without pgvector) rejects every method with
 * `UNAVAILABLE` and a message saying what is missing.
 */
/** How `upsertFileVectors` bounds a tenant's vectorized files; its `events` are appended with the vectors. */
export interface VectorUpsertOptions extends RecordedOptions {
  /** Most files of the tenant that may be vectorized once this one is; undefined: no limit. */
  maxVectorizedFiles?: number | undefined
}

export interface VectorRecordStore {
  /**
   * Replaces every vector of a file with `vectors` (passage order) and marks the file `vectorized`,
   * atomically: readers see the old set or the new one, never a mix, so re-vectorizing is
   * idempotent and concurrent upserts of one file leave exactly one caller's set. Returns the
   * updated file, or `undefined` when the file does not exist for this tenant and network.
   * A file deleted concurrently either loses the race (→ `undefined`) or takes the vectors with it.
   * With `maxVectorizedFiles`, a file not yet vectorized is refused (`QUOTA_EXCEEDED`, nothing
   * stored) when its tenant already has that many vectorized files; the count is checked in the
   * same atomic step as the write, so of concurrent upserts of a tenant's files with room for k
   * more, exactly k succeed. Re-vectorizing a file already vectorized always fits.
   */
  upsertFileVectors(
    tenantId: string,
    network: Network,
    fileId: string,
    embedding: VectorEmbedding,
    vectors: readonly Float32Array[],
    options?: VectorUpsertOptions,
  ): Promise<FileRecord | undefined>

  /**
   * Removes a file's vectors and clears `vectorized`. Idempotent; returns the updated file, or
   * `undefined` when the file does not exist for this tenant and network (then no `events` are
   * appended; otherwise they are, in the same atomic step).
   */
  deleteFileVectors(
    tenantId: string,
    network: Network,
    fileId: string,
    options?: RecordedOptions,
  ): Promise<FileRecord | undefined>

  /**
   * The files of one group of one tenant and network whose passages are most similar to the query,
   * best first (ties by file id), at most `limit` of them, each once with its best passage's score.
   * Filtering by tenant, network and group happens before ranking: a group's matches are never
   * crowded out by other groups' or tenants' vectors, and a group holding N vectorized files answers
   * min(N, limit) matches. An unknown group, or a store without an embedder yet, answers `[]`.
   * Approximate indexes may rank slightly differently from exact search (the adapter documents its recall).
   */
  queryVectors(query: VectorQuery, embedding: VectorEmbedding, options?: CallOptions): Promise<VectorMatch[]>

  /** The embedder the stored vectors came from, or `undefined` while none is recorded. */
  getVectorEmbedding(options?: CallOptions): Promise<VectorEmbedding | undefined>

  /**
   * Deletes every vector of every tenant, clears every file's `vectorized` flag and forgets the
   * embedder, so vectors of another embedder can be stored. For switching embedders.
   */
  resetVectorIndex(options?: CallOptions): Promise<void>
}
