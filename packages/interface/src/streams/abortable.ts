import { abortError, throwIfAborted } from '../errors.js'

/**
 * Iterates `source`, rejecting with `ABORTED` as soon as `signal` aborts, even while the source is
 * still waiting for its next chunk (a stalled upload must not pin a temp file or a multipart
 * upload until it resumes).
 *
 * Each wait races against a promise made for that wait alone: racing every chunk against one
 * long-lived "aborted" promise would attach a reaction per chunk to it, and those reactions keep
 * every chunk alive until the signal settles — the whole upload, held in memory.
 */
export async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  if (!signal) return yield* source
  throwIfAborted(signal)
  const iterator = source[Symbol.asyncIterator]()
  let exhausted = false
  try {
    while (true) {
      const next = await nextOrAbort(iterator, signal)
      if (next.done) {
        exhausted = true
        return
      }
      yield next.value
      throwIfAborted(signal)
    }
  } finally {
    // Let the source release what it holds. Not awaited: it may be stuck waiting for data, and its
    // own failure to close changes nothing for a consumer that has already stopped.
    if (!exhausted) iterator.return?.()?.catch(() => {})
  }
}

function nextOrAbort<T>(iterator: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T>> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    iterator.next().then(
      (result) => {
        signal.removeEventListener('abort', onAbort)
        resolve(result)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
