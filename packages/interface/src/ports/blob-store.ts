import type { CallOptions } from '../call-options.js'

/** Keys core uses: ASCII letters, digits, `-`, `_`, `.` and `/`; at most 512 characters; no `..`. */
export const BLOB_KEY_PATTERN = /^(?!.*\.\.)[A-Za-z0-9_.\-/]{1,512}$/

export interface ByteRange {
  /** First byte, 0-based; at most the blob's size. */
  offset: number
  /** Number of bytes; clamped to the end of the blob. Omitted means "to the end". */
  length?: number | undefined
}

export interface BlobInfo {
  key: string
  size: number
}

export interface PresignOptions {
  expiresInSeconds: number
  contentType?: string | undefined
  /** A full `Content-Disposition` value for the response. */
  contentDisposition?: string | undefined
}

/**
 * Opaque bytes under string keys. Content addressing is core's job: a blob store neither hashes
 * nor dedupes; it stores and returns bytes, streaming both ways.
 */
export interface BlobStore {
  /**
   * Writes every byte of `source` under `key` and resolves with the number of bytes written.
   * Atomic: readers see either no object or the complete one. If `source` throws, the signal
   * aborts or the backend fails, the promise rejects and nothing is left under `key`.
   * Memory use is bounded independently of the blob's size.
   */
  put(key: string, source: AsyncIterable<Uint8Array>, options?: CallOptions): Promise<{ size: number }>

  /**
   * Streams a blob, or the given range of it. Rejects with `NOT_FOUND` when the key is absent and
   * `RANGE_NOT_SATISFIABLE` when `range.offset` exceeds the size. Reads only the bytes asked for,
   * and yields exactly them: `range.length` bytes from `range.offset`, fewer only where the blob
   * ends (the gateway serves them as they come, so a byte more is a corrupt answer).
   */
  get(key: string, options?: CallOptions & { range?: ByteRange | undefined }): Promise<AsyncIterable<Uint8Array>>

  /** Size of a blob, or `undefined` when absent. */
  head(key: string, options?: CallOptions): Promise<BlobInfo | undefined>

  /** Removes a blob. Idempotent: deleting an absent key succeeds. */
  delete(key: string, options?: CallOptions): Promise<void>

  /** Optional: a time-limited URL from which a client can GET the blob directly (S3). */
  presignGet?(key: string, options: PresignOptions & CallOptions): Promise<string>

  /** Optional: every key under a prefix, for sweeping blobs that no record references. */
  list?(options?: CallOptions & { prefix?: string | undefined }): AsyncIterable<BlobInfo>

  /**
   * Optional: writing one blob in parts over time (a resumable upload stores each accepted request
   * as a part and makes the blob from them without reading them back). A store without it makes
   * core keep every part as a blob of its own and copy them into the final blob at the end.
   */
  staged?: StagedBlobWrites | undefined
}

/** What one `appendPart` stored: its size, and the token `complete` takes for it. */
export interface StagedPart {
  size: number
  /** Opaque and JSON-safe: the caller persists it and hands it back to `complete`, maybe from another process. */
  part: string
}

/**
 * A blob written in parts, possibly by several processes one after another (the handle and the part
 * tokens are plain strings the caller persists). Nothing is visible under the key until `complete`.
 *
 * - Parts are appended in order, one at a time: the caller never runs two `appendPart`s of one
 *   staged write at once. `offset` is the total size of the parts before this one.
 * - Appending at an offset again (after a failed or refused part) replaces what was written from
 *   there on; a part whose source fails or whose signal aborts rejects, and may be appended again.
 * - Every part but the last holds at least `minPartBytes` bytes; the caller buffers smaller ones.
 * - Memory use is bounded independently of the size of a part.
 */
export interface StagedBlobWrites {
  /** The smallest part but the last that the store accepts (S3: its part size, at least 5 MiB). */
  readonly minPartBytes: number

  /** Starts a staged write of `key`; resolves with its handle. */
  begin(key: string, options?: CallOptions): Promise<string>

  /** Streams one part, starting `offset` bytes into the blob. Durable once it resolves. */
  appendPart(
    key: string,
    handle: string,
    offset: number,
    source: AsyncIterable<Uint8Array>,
    options?: CallOptions,
  ): Promise<StagedPart>

  /**
   * Makes the blob under `key` the given parts, in order (none: an empty blob), without copying
   * their bytes through the caller. Atomic like `put`; the handle is spent once it resolves.
   */
  complete(key: string, handle: string, parts: readonly string[], options?: CallOptions): Promise<{ size: number }>

  /** Drops a staged write and every part of it. Idempotent; a no-op for a completed one. */
  abort(key: string, handle: string, options?: CallOptions): Promise<void>
}
