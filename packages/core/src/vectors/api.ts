/** `FileService.vectors`: the contract (its operations are in `vectors.ts`). */

import type { Actor, CallOptions, FileRecord, VectorMatch } from '@pinfold/interface'

export interface VectorQueryInput {
  /** What to look for: 1 to 2000 characters. */
  text: string
  /** Most files returned: 1 to 20, default 20. */
  limit?: number | undefined
}

export interface VectorQueryResult {
  count: number
  matches: VectorMatch[]
}

/**
 * Semantic vectors of private files. Vectorizing and querying need the `vectors` feature (an
 * `embedder` and a `textExtractor`); without it they answer `UNAVAILABLE`.
 */
export interface VectorOperations {
  /**
   * Reads the file's text, embeds its passages and replaces the file's vectors (re-vectorizing is
   * idempotent). `INVALID_INPUT`: the file is public, in no group, a folder or CAR upload, or holds
   * no extractable text. `NOT_FOUND`. `PAYLOAD_TOO_LARGE`, `UNPROCESSABLE`, `RATE_LIMITED`: the text
   * extractor refused the file or is busy. `CONFLICT`: the index was built by another embedder.
   */
  vectorize(actor: Actor, fileId: string, options?: CallOptions): Promise<FileRecord>

  /** Removes the file's vectors; idempotent, needs no embedder. `INVALID_INPUT`: a public file. `NOT_FOUND`. */
  deleteVectors(actor: Actor, fileId: string, options?: CallOptions): Promise<FileRecord>

  /**
   * The group's files whose text means most nearly what `query.text` says, best first, each with its
   * best passage's cosine similarity. `INVALID_INPUT`: a bad text or limit, or a public group.
   * `NOT_FOUND`: no such group. `CONFLICT`: the index was built by another embedder.
   */
  query(actor: Actor, groupId: string, query: VectorQueryInput, options?: CallOptions): Promise<VectorQueryResult>
}
