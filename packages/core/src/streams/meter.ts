import { PinfoldError, throwIfAborted } from '@pinfold/interface'

export interface Meter {
  /** Bytes seen so far. */
  readonly bytes: number
  /** The first bytes of the stream (up to the requested head size), for type sniffing. */
  readonly head: Uint8Array
}

/**
 * Passes a byte stream through while counting it, keeping its first `headSize` bytes, and
 * failing with PAYLOAD_TOO_LARGE the moment it exceeds `maxBytes` — before the excess is stored.
 * Also stops at once when `signal` aborts, so every consumer downstream sees the abort.
 */
export function meter(
  source: AsyncIterable<Uint8Array>,
  options: { maxBytes: number; headSize: number; signal?: AbortSignal | undefined },
): { stream: AsyncIterable<Uint8Array>; meter: Meter } {
  const state = { bytes: 0, head: new Uint8Array(0) }
  async function* stream() {
    for await (const chunk of source) {
      throwIfAborted(options.signal)
      state.bytes += chunk.length
      if (state.bytes > options.maxBytes) {
        throw new PinfoldError('PAYLOAD_TOO_LARGE', `upload exceeds the limit of ${options.maxBytes} bytes`)
      }
      if (state.head.length < options.headSize) {
        const head = new Uint8Array(Math.min(options.headSize, state.head.length + chunk.length))
        head.set(state.head)
        head.set(chunk.subarray(0, head.length - state.head.length), state.head.length)
        state.head = head
      }
      yield chunk
    }
    throwIfAborted(options.signal)
  }
  return { stream: stream(), meter: state }
}
