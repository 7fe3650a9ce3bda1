import type { FileService } from '@pinfold/core'

export interface WebhookWorkerOptions {
  /** How long an idle loop waits before it asks again; 0 runs no webhook loop in this instance. */
  pollIntervalMs: number
  /** Deliveries this instance sends at the same time. */
  jobs: number
  onError?: ((task: string, error: unknown) => void) | undefined
}

/**
 * Runs the webhook outbox: one loop moves new events of the journal into the outbox (a batch at a
 * time, at once again while batches come full), and `jobs` loops each send the next due delivery,
 * then ask again at once, or after `pollIntervalMs` when nothing was due. Instances sharing one
 * database share the outbox (fan-outs take disjoint events, claims are exclusive and leased). The
 * returned function stops the loops: an attempt in flight is aborted and its delivery given back.
 */
export function startWebhookWorkers(service: FileService, options: WebhookWorkerOptions): () => Promise<void> {
  if (options.pollIntervalMs <= 0 || options.jobs <= 0 || !service.features.webhooks) return async () => {}
  const onError = options.onError ?? ((task, error) => console.error(`pinfold: webhook ${task} failed`, error))
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

  async function loop(task: string, step: () => Promise<boolean>): Promise<void> {
    while (!signal.aborted) {
      let more = false
      try {
        more = await step()
      } catch (error) {
        if (!signal.aborted) onError(task, error)
      }
      if (!more) await idle()
    }
  }

  const batch = service.webhooks
  const loops = [
    loop('fan-out', async () => (await batch.fanOut({ signal })) > 0),
    ...Array.from({ length: options.jobs }, () => loop('delivery', () => batch.deliverNext({ signal }))),
  ]
  return async () => {
    stopping.abort(new Error('the server is shutting down'))
    await Promise.all(loops)
  }
}
