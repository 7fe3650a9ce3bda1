import type { BlobStore } from '../../src/index.js'
import { PinfoldError } from '../../src/index.js'

/** A minimal blob store that counts the bytes it hands out. */
export function blobStore() {
  const blobs = new Map<string, Uint8Array>()
  const stats = { bytesRead: 0 }
  const store: BlobStore = {
    async put(key, source) {
      const parts: Uint8Array[] = []
      for await (const part of source) parts.push(part)
      blobs.set(key, new Uint8Array(Buffer.concat(parts)))
      return { size: blobs.get(key)!.length }
    },
    async get(key, options) {
      const blob = blobs.get(key)
      if (!blob) throw new PinfoldError('NOT_FOUND', key)
      const offset = options?.range?.offset ?? 0
      const slice = blob.subarray(
        offset,
        options?.range?.length === undefined ? undefined : offset + options.range.length,
      )
      stats.bytesRead += slice.length
      return (async function* () {
        for (let at = 0; at < slice.length; at += 65_536) yield slice.subarray(at, at + 65_536)
      })()
    },
    async head(key) {
      const blob = blobs.get(key)
      return blob && { key, size: blob.length }
    },
    async delete(key) {
      blobs.delete(key)
    },
  }
  return { store, stats, blobs }
}
