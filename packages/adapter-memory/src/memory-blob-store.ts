import {
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type CallOptions,
  PinfoldError,
  throwIfAborted,
} from '@pinfold/interface'

export interface MemoryBlobStore extends BlobStore {
  /** Raw probe for tests: whether a complete blob exists under `key`. */
  has(key: string): boolean
  /** Number of blobs held. */
  readonly count: number
  list(options?: CallOptions & { prefix?: string | undefined }): AsyncIterable<BlobInfo>
}

/**
 * Blobs as lists of chunks in a Map. A blob becomes visible only once its source has been read to
 * the end, which gives `put` its all-or-nothing contract for free.
 */
export function createMemoryBlobStore(): MemoryBlobStore {
  const blobs = new Map<string, { chunks: Uint8Array[]; size: number }>()

  function mustGet(key: string) {
    const blob = blobs.get(key)
    if (!blob) throw new PinfoldError('NOT_FOUND', `blob ${key} not found`)
    return blob
  }

  return {
    get count() {
      return blobs.size
    },
    has: (key) => blobs.has(key),

    async put(key, source, options) {
      throwIfAborted(options?.signal)
      const chunks: Uint8Array[] = []
      let size = 0
      for await (const chunk of source) {
        throwIfAborted(options?.signal)
        // copy: the producer may reuse its buffer once we hand control back
        chunks.push(chunk.slice())
        size += chunk.length
      }
      throwIfAborted(options?.signal)
      blobs.set(key, { chunks, size })
      return { size }
    },

    async get(key, options) {
      throwIfAborted(options?.signal)
      const blob = mustGet(key)
      const range = normaliseRange(options?.range, blob.size, key)
      return readRange(blob.chunks, range.offset, range.end, options?.signal)
    },

    async head(key) {
      const blob = blobs.get(key)
      return blob ? { key, size: blob.size } : undefined
    },

    async delete(key) {
      blobs.delete(key)
    },

    async *list(options) {
      const prefix = options?.prefix ?? ''
      for (const [key, blob] of [...blobs]) {
        if (key.startsWith(prefix)) yield { key, size: blob.size }
      }
    },
  }
}

function normaliseRange(range: ByteRange | undefined, size: number, key: string) {
  const offset = range?.offset ?? 0
  if (offset > size) throw new PinfoldError('RANGE_NOT_SATISFIABLE', `range starts past the end of ${key}`)
  const end = range?.length === undefined ? size : Math.min(size, offset + range.length)
  return { offset, end }
}

async function* readRange(chunks: Uint8Array[], start: number, end: number, signal: AbortSignal | undefined) {
  let at = 0
  for (const chunk of chunks) {
    const chunkEnd = at + chunk.length
    if (chunkEnd > start && at < end) {
      throwIfAborted(signal)
      yield chunk.subarray(Math.max(0, start - at), Math.min(chunk.length, end - at))
    }
    at = chunkEnd
    if (at >= end) return
  }
}
