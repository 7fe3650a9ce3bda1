import {
  type Actor,
  type CallOptions,
  PinfoldError,
  type RequestCountIncrement,
  type RequestCountTotals,
  throwIfAborted,
} from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'
import { type LimitSettings, limitsOf } from './limits.js'

/** How long a tenant's `requestsPerMinute` is trusted before it is read again. */
const LIMIT_TTL_MS = 10_000
/** How often what this process admitted is added to the shared counters, and the others' read back. */
export const REQUEST_COUNT_FLUSH_MS = 1_000
/** Tenants followed at once; past it the one seen longest ago goes first (memory stays bounded). */
const MAX_TENANTS = 100_000
const WINDOW_MS = 60_000

interface LimitRead {
  limit: Promise<number | null>
  /** The limit was changed here while this read was on its way: what it answers may predate the change. */
  forgotten: boolean
}

interface TenantRate {
  limit: number | null
  limitReadAt: number
  /** The shared counters as last read, around window `window` (every process's flushed counts). */
  shared: RequestCountTotals & { window: number }
  /** Requests admitted here and not yet flushed, by window (two at most: this one and the last). */
  pending: Map<number, number>
  /** Requests being flushed: still counted here until the totals that include them come back. */
  flushing: Map<number, number>
  /** When this process last had one of its requests (admitted or refused). */
  seenAt: number
}

/**
 * Each tenant's requests per minute, held across every process sharing the record store, without
 * a store write per request: each process counts what it admits, adds it to a shared counter per
 * tenant and minute every {@link REQUEST_COUNT_FLUSH_MS} (one batched call for all its tenants),
 * and reads the totals back. A request is admitted while the sliding-window estimate — the previous
 * minute's total weighted by how much of it still lies within the last 60 s, plus this minute's
 * total, plus what this process admitted since its last flush — stays within the limit.
 *
 * The error is bounded (docs/operations.md, "Requests per minute across processes"): a process
 * sees what the others admitted at most two flush periods late (theirs to add it, its own to read
 * it), so with N processes a tenant gets at most its limit plus what the other N−1 admitted in the
 * last ~2 s (each never more than the limit); with one process the limit is exact. A store that cannot answer leaves each process
 * counting on its own (its own requests still limited), never a 503 per request.
 */
export function createRequestRate(ctx: LimitSettings & Pick<ServiceContext, 'clock'>) {
  const tenants = new Map<string, TenantRate>()
  let flushTimer: ReturnType<typeof setTimeout> | undefined
  let droppedBefore = Number.NEGATIVE_INFINITY

  const windowOf = (at: number) => Math.floor(at / WINDOW_MS)

  /** Reads of a tenant's limit in flight: concurrent first requests share one. */
  const reading = new Map<string, LimitRead>()

  /**
   * The tenant's limit from the store, one read for every request waiting on it, which no single
   * request's signal may abort for the others.
   */
  function readLimit(tenantId: string): LimitRead {
    let read = reading.get(tenantId)
    if (!read) {
      const started: LimitRead = {
        forgotten: false,
        limit: limitsOf(ctx, tenantId).then((limits) => limits.requestsPerMinute),
      }
      started.limit
        .finally(() => {
          if (reading.get(tenantId) === started) reading.delete(tenantId)
        })
        .catch(() => {})
      reading.set(tenantId, started)
      read = started
    }
    return read
  }

  async function rateOf(tenantId: string, now: number, options?: CallOptions): Promise<TenantRate> {
    let rate = tenants.get(tenantId)
    if (rate && now - rate.limitReadAt < LIMIT_TTL_MS) return rate
    throwIfAborted(options?.signal)
    const read = readLimit(tenantId)
    let limit: number | null
    try {
      limit = await read.limit
    } catch {
      // a record store hiccup must not turn every request into a 503: the last known limit holds
      // (none known: this request is not limited), and the next request reads again
      return rate ?? newRate(null, now)
    }
    rate = tenants.get(tenantId)
    if (!rate) {
      if (tenants.size >= MAX_TENANTS) tenants.delete(tenants.keys().next().value!)
      rate = newRate(limit, now)
      tenants.set(tenantId, rate)
    }
    rate.limit = limit
    // a read that began before the limit was changed here answers this request, and the next reads again
    rate.limitReadAt = read.forgotten ? Number.NEGATIVE_INFINITY : now
    return rate
  }

  const newRate = (limit: number | null, now: number): TenantRate => ({
    limit,
    limitReadAt: now,
    shared: { window: windowOf(now), current: 0, previous: 0 },
    pending: new Map(),
    flushing: new Map(),
    seenAt: now,
  })
  const counted = (rate: TenantRate, window: number) =>
    (rate.pending.get(window) ?? 0) + (rate.flushing.get(window) ?? 0)

  /** The requests counted against the tenant in the 60 s before `now`, this process's unflushed ones included. */
  function estimate(rate: TenantRate, now: number): { current: number; previous: number; weight: number } {
    const window = windowOf(now)
    const { shared } = rate
    const current = (shared.window === window ? shared.current : 0) + counted(rate, window)
    const previous =
      (shared.window === window ? shared.previous : shared.window === window - 1 ? shared.current : 0) +
      counted(rate, window - 1)
    // the part of the previous minute still inside the last 60 s, its requests taken as spread evenly
    const weight = 1 - (now - window * WINDOW_MS) / WINDOW_MS
    return { current, previous, weight }
  }

  /** Seconds until one more request fits, if no other comes meanwhile (at least 1). */
  function retryAfter(limit: number, at: { current: number; previous: number; weight: number }): number {
    if (limit === 0) return 60
    const intoWindow = (1 - at.weight) * WINDOW_MS
    let waitMs: number
    if (at.current + 1 > limit) {
      // this minute's own requests fill it: wait for the next minute, where they weigh less and less
      const fraction = 1 - (limit - 1) / at.current
      waitMs = WINDOW_MS - intoWindow + fraction * WINDOW_MS
    } else {
      const fraction = 1 - (limit - at.current - 1) / at.previous
      waitMs = fraction * WINDOW_MS - intoWindow
    }
    return Math.max(1, Math.ceil(waitMs / 1000))
  }

  function scheduleFlush(): void {
    if (flushTimer) return
    flushTimer = setTimeout(() => {
      flushTimer = undefined
      flush().then(
        (active) => active && scheduleFlush(),
        () => scheduleFlush(),
      )
    }, REQUEST_COUNT_FLUSH_MS)
    // a process with nothing else to do may exit: unflushed counts are a second of one process
    flushTimer.unref?.()
  }

  /**
   * Adds what was admitted here to the shared counters and reads back the totals of every tenant
   * with a limit seen here in the last two minutes (what the other processes admitted moves its
   * estimate even while it sends this process nothing). Answers whether there was any: the flushes
   * go on while there is.
   */
  async function flush(): Promise<boolean> {
    const now = ctx.clock.now().getTime()
    const window = windowOf(now)
    const increments: RequestCountIncrement[] = []
    const taken: TenantRate[] = []
    for (const [tenantId, rate] of tenants) {
      if (rate.limit === null || now - rate.seenAt > WINDOW_MS * 2) continue
      taken.push(rate)
      rate.flushing = rate.pending
      rate.pending = new Map()
      if (rate.flushing.size === 0) increments.push({ tenantId, window, count: 0 })
      for (const [at, count] of rate.flushing) increments.push({ tenantId, window: at, count })
    }
    if (increments.length === 0) return false
    let totals: Map<string, RequestCountTotals>
    try {
      totals = await ctx.records.accounts.addRequestCounts(increments, window)
    } catch (error) {
      // not counted: kept here, added at the next flush
      for (const rate of taken) {
        for (const [at, count] of rate.flushing) rate.pending.set(at, (rate.pending.get(at) ?? 0) + count)
        rate.flushing = new Map()
      }
      throw error
    }
    for (const rate of taken) rate.flushing = new Map()
    for (const [tenantId, totalsOf] of totals) {
      const rate = tenants.get(tenantId)
      if (rate) rate.shared = { window, ...totalsOf }
    }
    if (window - 1 > droppedBefore) {
      droppedBefore = window - 1
      await ctx.records.accounts.dropRequestCountsBefore(window - 1).catch(() => {})
    }
    return true
  }

  async function takeRequest(actor: Actor, options?: CallOptions): Promise<void> {
    const now = ctx.clock.now().getTime()
    const rate = await rateOf(actor.tenantId, now, options)
    if (rate.limit === null) return
    // a refused tenant is followed too: what the others admit keeps moving its estimate
    rate.seenAt = now
    scheduleFlush()
    const at = estimate(rate, now)
    if (at.previous * at.weight + at.current + 1 <= rate.limit) {
      const window = windowOf(now)
      rate.pending.set(window, (rate.pending.get(window) ?? 0) + 1)
      for (const old of rate.pending.keys()) if (old < window - 1) rate.pending.delete(old)
      return
    }
    const seconds = retryAfter(rate.limit, at)
    throw new PinfoldError(
      'RATE_LIMITED',
      `the account may make ${rate.limit} requests per minute; retry in ${seconds} s`,
      { details: { retryAfterSeconds: seconds } },
    )
  }

  return {
    takeRequest,
    /** Drops what this process holds of a tenant's limit, after an operator changed it (its counts stay). */
    forget: (tenantId: string) => {
      const rate = tenants.get(tenantId)
      if (rate) rate.limitReadAt = Number.NEGATIVE_INFINITY
      const read = reading.get(tenantId)
      if (read) {
        read.forgotten = true
        reading.delete(tenantId)
      }
    },
  }
}
