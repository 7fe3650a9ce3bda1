import {
  type Actor,
  asOtherUsage,
  type CallOptions,
  type GatewayUsageCount,
  type GatewayUsageQuery,
  invalid,
  OTHER_USAGE_CID,
} from '@pinfold/interface'
import { parseCid } from '../common/parse-cid.js'
import type { ServiceContext } from '../service/context.js'
import type {
  GatewayHit,
  GatewayUsageFilter,
  UsageOperations,
  UsageRankingQuery,
  UsageTimeSeries,
  UsageTimeSeriesQuery,
} from './api.js'

/** What the usage operations use of the service. */
export type UsageSettings = Pick<ServiceContext, 'records' | 'clock' | 'usageRowsPerDay'>

/**
 * Distinct (tenant, day, CID, file name, status) counts held between flushes. Past it a flush is
 * started at once; while flushes fail and the buffer stays full, hits of new keys are dropped
 * rather than growing memory without bound. One tenant's day holds at most its cap on rows
 * (`maxUsageRowsPerDay`) and its "other" count here, as in the record store.
 */
export const USAGE_BUFFER_MAX = 10_000

/** The widest range one analytics query may add up. */
const MAX_RANGE_DAYS = 366
const DEFAULT_RANGE_DAYS = 30
const DAY_MS = 86_400_000
const DAY = /^\d{4}-\d{2}-\d{2}$/

const keyOf = (c: Omit<GatewayUsageCount, 'requests' | 'bytes'>) =>
  JSON.stringify([c.tenantId, c.day, c.cid, c.fileName, c.status])
const dayOf = (c: Pick<GatewayUsageCount, 'tenantId' | 'day'>) => JSON.stringify([c.tenantId, c.day])

type HeldCount = GatewayUsageCount & { named: boolean }

/**
 * Gateway usage is counted in memory and written in batches (`flush`, which the host calls every
 * few seconds and at shutdown): a request costs a Map update, never a write. What a crash loses is
 * bounded by the flush interval — the counts since the last flush. Reads flush this process's
 * counts first, so a server always answers with what it served itself.
 */
export function createUsageOperations(ctx: UsageSettings): UsageOperations {
  let buffer = new Map<string, HeldCount>()
  /** Rows of each (tenant, day) in `buffer` besides its "other" count. */
  let rowsOfDay = new Map<string, number>()
  let flushing: Promise<number> = Promise.resolve(0)
  const limits = { rowsPerTenantDay: ctx.usageRowsPerDay }

  async function writeBatch(options?: CallOptions): Promise<number> {
    if (buffer.size === 0) return 0
    const batch = buffer
    buffer = new Map()
    rowsOfDay = new Map()
    try {
      const counts = await nameFiles(ctx, [...batch.values()], options)
      await ctx.records.usage.addGatewayUsage(counts, limits, options)
      return counts.length
    } catch (error) {
      // kept for the next flush, as far as the bounds allow: a database outage delays counts
      for (const count of batch.values()) add(count)
      throw error
    }
  }

  /**
   * Adds a count to the buffer: to its own entry, or a new one while its tenant's day has rows
   * left, or else to the day's "other" count; dropped only when the buffer is full.
   */
  function add(count: HeldCount): void {
    let key = keyOf(count)
    if (!buffer.has(key) && count.cid !== OTHER_USAGE_CID) {
      const rows = rowsOfDay.get(dayOf(count)) ?? 0
      if (rows >= ctx.usageRowsPerDay) {
        count = { ...asOtherUsage(count), named: true }
        key = keyOf(count)
      } else if (buffer.size < USAGE_BUFFER_MAX) rowsOfDay.set(dayOf(count), rows + 1)
    }
    const held = buffer.get(key)
    if (held) {
      held.requests += count.requests
      held.bytes += count.bytes
    } else if (buffer.size < USAGE_BUFFER_MAX) buffer.set(key, { ...count })
  }

  function flush(options?: CallOptions): Promise<number> {
    // one flush at a time: the next one waits for the one running, then writes what came since
    const next = flushing.catch(() => 0).then(() => writeBatch(options))
    flushing = next
    return next
  }

  return {
    recordGatewayHit(hit: GatewayHit) {
      const count = {
        tenantId: hit.tenantId,
        day: ctx.clock.now().toISOString().slice(0, 10),
        cid: hit.cid,
        fileName: hit.fileName ?? '',
        named: hit.fileName !== undefined,
        status: hit.status,
        requests: 1,
        bytes: hit.bytes,
      }
      add(count)
      if (buffer.size >= USAGE_BUFFER_MAX) flush().catch(() => {})
    },

    flush,

    async rank(actor: Actor, query: UsageRankingQuery, options) {
      const filter = usageQuery(ctx, query)
      const limit = query.limit ?? 100
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw invalid('limit must be 1 to 1000')
      await flush(options)
      const ranking = { by: query.by, sortBy: query.sortBy, order: query.order ?? 'desc', limit } as const
      return ctx.records.usage.rankGatewayUsage(actor.tenantId, filter, ranking, options)
    },

    async timeSeries(actor: Actor, query: UsageTimeSeriesQuery, options): Promise<UsageTimeSeries> {
      const filter = usageQuery(ctx, query)
      if (query.interval !== 'day' && query.interval !== 'week') throw invalid('by must be "day" or "week"')
      const limit = query.limit
      if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) throw invalid('limit must be at least 1')
      await flush(options)
      const days = await ctx.records.usage.gatewayUsageByDay(actor.tenantId, filter, options)
      const periods = new Map<string, { requests: number; bytes: number }>()
      for (const day of days) {
        const start = query.interval === 'day' ? day.day : mondayOf(day.day)
        const period = periods.get(start) ?? { requests: 0, bytes: 0 }
        period.requests += day.requests
        period.bytes += day.bytes
        periods.set(start, period)
      }
      let series = [...periods].map(([start, total]) => ({ start, ...total }))
      if (query.sortBy) {
        const sign = query.order === 'asc' ? 1 : -1
        const by = query.sortBy
        series.sort((a, b) => sign * (a[by] - b[by]) || (a.start < b.start ? -1 : 1))
      } else if (query.order === 'desc') series.reverse()
      if (limit !== undefined) series = series.slice(0, limit)
      return {
        totalRequests: days.reduce((sum, d) => sum + d.requests, 0),
        totalBytes: days.reduce((sum, d) => sum + d.bytes, 0),
        periods: series,
      }
    },

    async storage(actor, options) {
      // the kept figures (one row), so Pinata's usage answers and the quotas agree
      const kept = await ctx.records.accounts.keptUsage(actor.tenantId, options)
      return { files: kept.files, bytes: kept.logicalBytes }
    },
  }
}

/** Checks dates and filters; without dates, the last 30 days up to today (UTC). */
function usageQuery(ctx: UsageSettings, query: GatewayUsageFilter): GatewayUsageQuery {
  const today = ctx.clock.now().toISOString().slice(0, 10)
  const to = query.to ?? today
  const from = query.from ?? addDays(to, -DEFAULT_RANGE_DAYS)
  for (const [field, value] of [
    ['start_date', from],
    ['end_date', to],
  ] as const) {
    if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || addDays(value, 0) !== value) {
      throw invalid(`${field} must be a date, YYYY-MM-DD`)
    }
  }
  if (from > to) throw invalid('start_date must not be after end_date')
  if (Date.parse(to) - Date.parse(from) > MAX_RANGE_DAYS * DAY_MS) {
    throw invalid(`a range spans at most ${MAX_RANGE_DAYS} days`)
  }
  if (query.cid !== undefined) parseCid(query.cid)
  return { from, to, cid: query.cid, fileName: query.fileName }
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

/** The Monday starting the ISO week of a day. */
function mondayOf(day: string): string {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7 // Monday 0 … Sunday 6
  return addDays(day, -weekday)
}

/**
 * Hits a handler could not name (a tenant's gateway knows the CID, not the file) get the name of
 * the tenant's public file of that CID, looked up once per distinct (tenant, CID) of a batch.
 */
async function nameFiles(ctx: UsageSettings, counts: HeldCount[], options?: CallOptions): Promise<GatewayUsageCount[]> {
  const names = new Map<string, string>()
  for (const { tenantId, cid, named } of counts) {
    const key = JSON.stringify([tenantId, cid])
    if (named || names.has(key)) continue
    let multihash: Uint8Array
    try {
      multihash = parseCid(cid).multihash.bytes
    } catch {
      names.set(key, '')
      continue
    }
    const file = await ctx.records.blocks.findHeldFile(tenantId, 'public', multihash, ctx.clock.now(), options)
    names.set(key, file?.name ?? '')
  }
  return counts.map(({ named, ...count }) => ({
    ...count,
    fileName: named ? count.fileName : (names.get(JSON.stringify([count.tenantId, count.cid])) ?? ''),
  }))
}
