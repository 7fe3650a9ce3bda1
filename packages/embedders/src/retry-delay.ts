/**
 * How long to wait before retry number `attempt` (0-based): the server's `Retry-After` when it gave
 * one (seconds or an HTTP date), else exponential backoff with full jitter so many clients that
 * failed together do not retry together. Never more than `maxMs`.
 */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number, retryAfter: string | null): number {
  const fromHeader = parseRetryAfter(retryAfter)
  if (fromHeader !== undefined) return Math.min(fromHeader, maxMs)
  return Math.min(baseMs * 2 ** attempt * (0.5 + Math.random() / 2), maxMs)
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
