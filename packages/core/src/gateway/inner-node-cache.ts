/**
 * Recently read inner DAG nodes (a file's sidecar nodes: a few KiB each, about 24 per GiB of file),
 * least recently used first out, within a byte budget. Blocks are immutable and keyed by their
 * blob and multihash, so an entry never goes stale; its bytes were checked when first read. This
 * is what lets repeated trustless range requests into a large file read only the leaf they need.
 */
export interface InnerNodeCache {
  get(key: string): Uint8Array | undefined
  set(key: string, bytes: Uint8Array): void
}

export function createInnerNodeCache(maxBytes = 8 * 1024 * 1024): InnerNodeCache {
  const entries = new Map<string, Uint8Array>()
  let bytes = 0
  return {
    get(key) {
      const found = entries.get(key)
      if (found) {
        entries.delete(key) // re-inserted: most recently used last
        entries.set(key, found)
      }
      return found
    },
    set(key, value) {
      if (value.length > maxBytes || entries.has(key)) return
      entries.set(key, value)
      bytes += value.length
      for (const [oldest, evicted] of entries) {
        if (bytes <= maxBytes) break
        entries.delete(oldest)
        bytes -= evicted.length
      }
    },
  }
}
