import { abortError, throwIfAborted } from '@pinfold/core'

/**
 * Iterates `source`, rejecting with `ABORTED` as soon as `signal` aborts, even while the source is
 * still waiting for its next chunk (a stalled upload must not pin a temp file until it resumes).
 */
export async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  if (!signal) return yield* source
  throwIfAborted(signal)
  const iterator = source[Symbol.asyncIterator]()
  let rejectOnAbort: (err: unknown) => void = () => {}
  const aborted = new Promise<never>((_, reject) => {
    rejectOnAbort = reject
  })
  const onAbort = () => rejectOnAbort(abortError(signal))
  signal.addEventListener('abort', onAbort, { once: true })
  let exhausted = false
  try {
    while (true) {
      const next = await Promise.race([iterator.next(), aborted])
      if (next.done) {
        exhausted = true
        return
      }
      yield next.value
      throwIfAborted(signal)
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
    // Let the source release what it holds. Not awaited: it may be stuck waiting for data, and its
    // own failure to close changes nothing about this write, which has already failed.
    if (!exhausted) iterator.return?.()?.catch(() => {})
  }
}
