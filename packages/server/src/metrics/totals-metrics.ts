import type { FileService, PinStateTotal, StoredTotals } from '@pinfold/core'
import { Gauge, type Registry } from 'prom-client'

/** How long a scrape waits for a refresh of the totals before answering with the last ones. */
const FRESH_WAIT_MS = 25

/**
 * A read kept for `maxAgeMs`: a scrape after that starts one refresh (shared by concurrent scrapes)
 * and waits for it at most {@link FRESH_WAIT_MS}, else answers with the last figures, so a slow
 * sum over a million files holds only the first scrape of a process. Undefined while no read has
 * succeeded.
 */
function kept<T>(read: () => Promise<T>, maxAgeMs: number): () => Promise<T | undefined> {
  let last: { at: number; value: T } | undefined
  let refreshing: Promise<void> | undefined
  return async () => {
    if (!last || Date.now() - last.at >= maxAgeMs) {
      refreshing ??= read()
        .then((value) => {
          last = { at: Date.now(), value }
        })
        .catch(() => {}) // figures stay as they were; the next scrape tries again
        .finally(() => {
          refreshing = undefined
        })
      // the first read is waited for whole: before it there is no figure to answer with, and a
      // gauge without one would read 0
      if (!last) await refreshing
      else {
        let timer: NodeJS.Timeout | undefined
        await Promise.race([refreshing, new Promise((resolve) => (timer = setTimeout(resolve, FRESH_WAIT_MS)))])
        clearTimeout(timer)
      }
    }
    return last?.value
  }
}

const STORED: [keyof StoredTotals, string, string][] = [
  ['files', 'pinfold_stored_files', 'File records, every tenant and network.'],
  [
    'logicalBytes',
    'pinfold_stored_logical_bytes',
    "The sum of the files' sizes (a content held by two files counts twice).",
  ],
  ['contents', 'pinfold_stored_contents', 'Distinct contents the files hold (one blob each).'],
  [
    'physicalBytes',
    'pinfold_stored_physical_bytes',
    "The sum of the contents' sizes: bytes in the blob store, sidecars excepted.",
  ],
  ['blocks', 'pinfold_stored_blocks', 'Entries in the block index.'],
]

/** What the deployment stores and queues, read through `service.totals` at scrape time (kept `maxAgeMs`). */
export function watchTotals(registers: Registry[], maxAgeMs: number) {
  let stored: (() => Promise<StoredTotals | undefined>) | undefined
  let pinStates: (() => Promise<PinStateTotal[] | undefined>) | undefined
  for (const [field, name, help] of STORED) {
    new Gauge({
      name,
      help: `${help} Read at most every ${maxAgeMs / 1000} s.`,
      registers,
      // every worker of a cluster reads the same database: its figure once, not once per worker
      aggregator: 'max',
      async collect() {
        const totals = await stored?.()
        if (totals) this.set(totals[field])
      },
    })
  }
  new Gauge({
    name: 'pinfold_pin_requests',
    help: 'Pin-by-CID requests by state: queued and retrieving (the queue), pinned and failed (job outcomes kept).',
    labelNames: ['state'] as const,
    registers,
    aggregator: 'max',
    async collect() {
      for (const { state, count } of (await pinStates?.()) ?? []) this.set({ state }, count)
    },
  })
  new Gauge({
    name: 'pinfold_pin_request_oldest_age_seconds',
    help: 'Age of the oldest pin-by-CID request in each state (since it was queued); absent when the state has none.',
    labelNames: ['state'] as const,
    registers,
    aggregator: 'max',
    async collect() {
      this.reset()
      const now = Date.now()
      for (const { state, oldestCreatedAt } of (await pinStates?.()) ?? []) {
        if (oldestCreatedAt) this.set({ state }, Math.max(0, (now - oldestCreatedAt.getTime()) / 1000))
      }
    },
  })
  return {
    /** Reads the service's totals at each scrape. */
    totals(service: Pick<FileService, 'totals'>): void {
      stored = kept(() => service.totals.stored(), maxAgeMs)
      pinStates = kept(() => service.totals.pinStates(), maxAgeMs)
    },
  }
}
