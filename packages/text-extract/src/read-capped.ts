import { throwIfAborted } from '@pinfold/interface'

export interface CappedBytes {
  bytes: Uint8Array
  /** True when the source held more than `maxBytes`; `bytes` then holds the first `maxBytes`. */
  truncated: boolean
}

/**
 * Collects at most `maxBytes` from a byte stream. It stops pulling once the cap is reached (at most
 * one more chunk is read to learn whether anything follows), and `for await`'s early exit calls the
 * source's `return()`, so the producer can release its file or socket.
 */
export async function readCapped(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<CappedBytes> {
  const chunks: Uint8Array[] = []
  let total = 0
  let truncated = false
  for await (const chunk of source) {
    throwIfAborted(signal)
    const room = maxBytes - total
    if (chunk.length > room) {
      truncated = true
      if (room > 0) chunks.push(chunk.subarray(0, room))
      total += room
      break
    }
    chunks.push(chunk)
    total += chunk.length
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return { bytes, truncated }
}
