/** The least a chunk weighs against a bound on queued bytes (see {@link chunkWeight}). */
export const MIN_CHUNK_WEIGHT = 1024

/**
 * What a queued chunk counts against a bound on queued bytes: its length, but at least
 * {@link MIN_CHUNK_WEIGHT}. Holding a chunk costs its objects (a view and its buffer) whatever its
 * length, so a bound on bytes alone lets a client that sends one byte per packet fill it with
 * millions of chunks while the store is slow: 2 MiB of 1-byte chunks held 500 MB of heap.
 */
export const chunkWeight = (chunk: Uint8Array): number => Math.max(chunk.length, MIN_CHUNK_WEIGHT)
