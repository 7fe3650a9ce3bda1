import { abortError, throwIfAborted } from '../errors.js'

/**
 * Iterates `source`, rejecting with `ABORTED` as soon as `signal` aborts, even while the source is
 * still waiting for its next chunk (a stalled upload must not pin a temp file or a multipart
 * upload until it resumes).
 *
 * Each wait is a promise made for that wait alone: racing every chunk against one long-lived
 * "aborted" promise would attach a reaction per chunk to it, and those reactions keep every chunk
 * alive until the signal settles — the whole upload, held in memory. The abort listener, though,
 * is one for the whole iteration (it rejects whichever wait is current): adding and removing one
 * per 64 KiB chunk showed in an upload's CPU profile.
 */
export async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  if (!signal) return yield* source
  throwIfAborted(signal)
  const iterator = source[Symbol.asyncIterator]()
  let rejectWait: ((error: unknown) => void) | undefined
  const onAbort = () => rejectWait?.(abortError(signal))
  signal.addEventListener('abort', onAbort, { once: true })
  let exhausted = false
  try {
    while (true) {
      // the signal is checked before each wait (below and on entry): the listener fires only once
      const next = await new Promise<IteratorResult<T>>((resolve, reject) => {
        rejectWait = reject
        iterator.next().then(resolve, reject)
      })
      rejectWait = undefined
      if (next.done) {
        exhausted = true
        return
      }
      yield next.value
      throwIfAborted(signal)
    }
  } finally {
    rejectWait = undefined
    signal.removeEventListener('abort', onAbort)
    // Let the source release what it holds. Not awaited: it may be stuck waiting for data, and its
    // own failure to close changes nothing for a consumer that has already stopped.
    if (!exhausted) iterator.return?.()?.catch(() => {})
  }
}
