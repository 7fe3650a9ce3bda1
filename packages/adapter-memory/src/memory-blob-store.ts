import {
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type CallOptions,
  PinfoldError,
  type StagedBlobWrites,
  throwIfAborted,
} from '@pinfold/interface'

export interface MemoryBlobStore extends BlobStore {
  /** Raw probe for tests: whether a complete blob exists under `key`. */
  has(key: string): boolean
  /** Number of blobs held. */
  readonly count: number
  list(options?: CallOptions & { prefix?: string | undefined }): AsyncIterable<BlobInfo>
  staged: StagedBlobWrites
  /** Parts of staged writes not yet completed or aborted (to prove nothing leaks). */
  readonly stagedParts: number
}

/**
 * Blobs as lists of chunks in a Map. A blob becomes visible only once its source has been read to
 * the end, which gives `put` its all-or-nothing contract for free.
 */
export function createMemoryBlobStore(): MemoryBlobStore {
  const blobs = new Map<string, { chunks: Uint8Array[]; size: number }>()
  /** Staged writes by handle: each appended part under its own token, so a refused part never mixes in. */
  const staging = new Map<string, Map<string, { chunks: Uint8Array[]; size: number }>>()
  let nextId = 0

  async function copied(source: AsyncIterable<Uint8Array>, signal: AbortSignal | undefined) {
    const chunks: Uint8Array[] = []
    let size = 0
    for await (const chunk of source) {
      throwIfAborted(signal)
      // copy: the producer may reuse its buffer once we hand control back
      chunks.push(chunk.slice())
      size += chunk.length
    }
    throwIfAborted(signal)
    return { chunks, size }
  }

  function mustStage(key: string, handle: string) {
    const parts = staging.get(handle)
    if (!parts) throw new PinfoldError('NOT_FOUND', `no staged write ${handle} of ${key}`)
    return parts
  }

  const staged: StagedBlobWrites = {
    minPartBytes: 1,
    async begin(_key, options) {
      throwIfAborted(options?.signal)
      const handle = `staged-${++nextId}`
      staging.set(handle, new Map())
      return handle
    },
    async appendPart(key, handle, offset, source, options) {
      throwIfAborted(options?.signal)
      mustStage(key, handle)
      const part = await copied(source, options?.signal)
      const token = `${offset}:${++nextId}`
      // aborted meanwhile: the part is dropped with its write
      staging.get(handle)?.set(token, part)
      return { size: part.size, part: token }
    },
    async complete(key, handle, tokens, options) {
      throwIfAborted(options?.signal)
      const parts = mustStage(key, handle)
      const chosen = tokens.map((token) => {
        const part = parts.get(token)
        if (!part) throw new PinfoldError('NOT_FOUND', `no part ${token} in the staged write of ${key}`)
        return part
      })
      const blob = { chunks: chosen.flatMap((part) => part.chunks), size: chosen.reduce((sum, p) => sum + p.size, 0) }
      staging.delete(handle)
      blobs.set(key, blob)
      return { size: blob.size }
    },
    async abort(_key, handle, options) {
      throwIfAborted(options?.signal)
      staging.delete(handle)
    },
  }

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
    get stagedParts() {
      return [...staging.values()].reduce((sum, parts) => sum + parts.size, 0)
    },
    staged,

    async put(key, source, options) {
      throwIfAborted(options?.signal)
      const blob = await copied(source, options?.signal)
      blobs.set(key, blob)
      return { size: blob.size }
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
