import type { FileService } from '@pinfold/core'

export interface PinWorkerOptions {
  /** How long an idle worker waits before it asks the queue again; 0 runs no worker. */
  pollIntervalMs: number
  /** Jobs this process runs at the same time. */
  jobs: number
  onError?: ((error: unknown) => void) | undefined
}

/**
 * Runs pin-by-CID jobs from the shared queue: `jobs` loops, each claiming the next request (the
 * first one poll after start) and running it to its end, then asking again at once, or after
 * `pollIntervalMs` when the queue had nothing. Instances sharing one database share the queue (claims are exclusive, leases expire).
 * The returned function stops the loops: jobs in flight are aborted, which puts their requests back
 * in the queue for whichever instance claims next, and resolves once they have let go.
 */
export function startPinWorkers(service: FileService, options: PinWorkerOptions): () => Promise<void> {
  if (options.pollIntervalMs <= 0 || options.jobs <= 0) return async () => {}
  const onError = options.onError ?? ((error) => console.error('pinfold: pin job failed', error))
  const stopping = new AbortController()
  const { signal } = stopping

  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.pollIntervalMs)
      timer.unref()
      signal.addEventListener('abort', done, { once: true })
      function done() {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        resolve()
      }
    })

  async function loop(): Promise<void> {
    // The first claim waits one poll: a restarted server answers its first requests before it turns
    // to a backlog, and a poll is the longest an empty queue waits anyway.
    await idle()
    while (!signal.aborted) {
      let ran = false
      try {
        ran = await service.pins.runNext({ signal })
      } catch (error) {
        if (!signal.aborted) onError(error)
      }
      if (!ran) await idle()
    }
  }

  const loops = Array.from({ length: options.jobs }, loop)
  return async () => {
    stopping.abort(new Error('the server is shutting down'))
    await Promise.all(loops)
  }
}
