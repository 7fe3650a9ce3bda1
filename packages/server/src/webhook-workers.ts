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
 * time, again at once while it finds some), and `jobs` loops each send the next due delivery,
 * then ask again at once, or wait when nothing was due (see the loops below for how long). Instances sharing one
 * database share the outbox (fan-outs take disjoint events, claims are exclusive and leased). The
 * returned function stops the loops: an attempt in flight is aborted and its delivery given back.
 */
export function startWebhookWorkers(service: FileService, options: WebhookWorkerOptions): () => Promise<void> {
  if (options.pollIntervalMs <= 0 || options.jobs <= 0 || !service.features.webhooks) return async () => {}
  const onError = options.onError ?? ((task, error) => console.error(`pinfold: webhook ${task} failed`, error))
  const stopping = new AbortController()
  const { signal } = stopping

  /** Loops asleep until the next poll or until there is work: `wake` ends their wait at once. */
  const sleepers = new Set<() => void>()
  const wake = () => {
    for (const done of [...sleepers]) done()
  }
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      timer.unref()
      signal.addEventListener('abort', done, { once: true })
      sleepers.add(done)
      function done() {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        sleepers.delete(done)
        resolve()
      }
    })

  async function loop(task: string, step: () => Promise<boolean>, idleMs: number): Promise<void> {
    // The first step waits one poll: a restarted server answers its first requests before it turns
    // to the deliveries left from before, which had been waiting longer than that already.
    await idle(options.pollIntervalMs)
    while (!signal.aborted) {
      let more = false
      try {
        more = await step()
      } catch (error) {
        if (!signal.aborted) onError(task, error)
      }
      if (more) wake()
      else await idle(idleMs)
    }
  }

  // An idle instance asks the store twice a poll (one fan-out, one claim), not once per loop: the
  // first delivery loop polls, and the others sleep until work turns up (new events fanned out, a
  // delivery claimed) or, at the latest, ten polls later.
  const webhooks = service.webhooks
  const loops = [
    loop('fan-out', async () => (await webhooks.fanOut({ signal })) > 0, options.pollIntervalMs),
    ...Array.from({ length: options.jobs }, (_, i) =>
      loop(
        'delivery',
        () => webhooks.deliverNext({ signal }),
        i === 0 ? options.pollIntervalMs : 10 * options.pollIntervalMs,
      ),
    ),
  ]
  return async () => {
    stopping.abort(new Error('the server is shutting down'))
    await Promise.all(loops)
  }
}
