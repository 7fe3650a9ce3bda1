/** Amino provider records live 48 h; Kubo re-announces every 22 h, and so does this by default. */
export const DEFAULT_REPROVIDE_INTERVAL_MS = 22 * 60 * 60 * 1000
/** Announcements in flight at once: each is a DHT walk of ~20 peers, so a few keep a small host busy enough. */
export const DEFAULT_PROVIDE_CONCURRENCY = 8

export interface ReproviderOptions {
  /** Every root to announce, read afresh at each run (public roots only: the caller decides). */
  roots(options: { signal: AbortSignal }): AsyncIterable<string>
  /** Announces one root (a DHT provide). */
  provide(cid: string, options: { signal: AbortSignal }): Promise<void>
  /**
   * Stops re-announcing a root the last run announced and this one did not list (deleted, expired):
   * the DHT's own reprovider would otherwise keep announcing it for as long as the process runs.
   */
  withdraw(cid: string): Promise<void>
  intervalMs?: number | undefined
  concurrency?: number | undefined
  onError?: ((cid: string, error: unknown) => void) | undefined
}

export interface ReproviderStatus {
  /** Runs finished since start. */
  runs: number
  /** Roots announced and failed in the last finished run, and roots it stopped announcing. */
  provided: number
  failed: number
  withdrawn: number
  lastRunAt: Date | undefined
}

/**
 * Announces every public root now, then again every `intervalMs`, at most `concurrency` at a time.
 * A root that fails is reported and retried at the next run; the loop itself never stops on one.
 */
export function startReprovider(options: ReproviderOptions) {
  const intervalMs = options.intervalMs ?? DEFAULT_REPROVIDE_INTERVAL_MS
  const concurrency = options.concurrency ?? DEFAULT_PROVIDE_CONCURRENCY
  const stopping = new AbortController()
  const status: ReproviderStatus = { runs: 0, provided: 0, failed: 0, withdrawn: 0, lastRunAt: undefined }
  let timer: NodeJS.Timeout | undefined
  // What the last complete run listed: one string per public root (memory grows with their number).
  let announced = new Set<string>()

  async function run(): Promise<void> {
    const signal = stopping.signal
    let provided = 0
    let failed = 0
    let listed = true
    const seen = new Set<string>()
    const inFlight = new Set<Promise<void>>()
    try {
      for await (const cid of options.roots({ signal })) {
        if (signal.aborted) break
        seen.add(cid)
        const one = options.provide(cid, { signal }).then(
          () => {
            provided++
          },
          (error: unknown) => {
            failed++
            if (!signal.aborted) options.onError?.(cid, error)
          },
        )
        inFlight.add(one)
        void one.finally(() => inFlight.delete(one))
        if (inFlight.size >= concurrency) await Promise.race(inFlight)
      }
    } catch (error) {
      listed = false
      if (!signal.aborted) options.onError?.('(listing the public roots)', error)
    }
    await Promise.all(inFlight)
    if (signal.aborted) return
    // only a complete listing says a root is gone: a failed one withdraws nothing
    let withdrawn = 0
    if (listed) {
      for (const cid of announced) {
        if (seen.has(cid)) continue
        await options.withdraw(cid).then(
          () => {
            withdrawn++
          },
          (error: unknown) => options.onError?.(cid, error),
        )
      }
      announced = seen
    }
    Object.assign(status, { runs: status.runs + 1, provided, failed, withdrawn, lastRunAt: new Date() })
    timer = setTimeout(() => {
      current = run()
    }, intervalMs)
    // a pending announcement must never keep the process alive on its own
    timer.unref()
  }

  let current = run()
  return {
    status: (): ReproviderStatus => ({ ...status }),
    async stop(): Promise<void> {
      stopping.abort()
      clearTimeout(timer)
      await current
    },
  }
}

export type Reprovider = ReturnType<typeof startReprovider>
