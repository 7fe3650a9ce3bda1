/** `FileService.usage`: the contract (its operations are in `usage.ts`). */

import type { Actor, CallOptions, StorageUsage } from '@pinfold/interface'

/** One gateway answer of a tenant's content, as the HTTP layer saw it go out. */
export interface GatewayHit {
  tenantId: string
  /** The CID as requested. */
  cid: string
  /** The tenant's file name, when the handler knows it; else looked up when the counts are written. */
  fileName?: string | undefined
  status: number
  /** Body bytes sent (fewer than the file's size when the client went away). */
  bytes: number
}

/** Which of a tenant's gateway counts a query adds up; dates are UTC days, `YYYY-MM-DD`. */
export interface GatewayUsageFilter {
  /** Default: 30 days before `to`. */
  from?: string | undefined
  /** Default: today (UTC). */
  to?: string | undefined
  cid?: string | undefined
  fileName?: string | undefined
}

export interface UsageRankingQuery extends GatewayUsageFilter {
  by: 'cid' | 'fileName'
  sortBy: 'requests' | 'bytes'
  /** Default `desc`. */
  order?: 'asc' | 'desc' | undefined
  /** 1 to 1000, default 100. */
  limit?: number | undefined
}

export interface UsageTimeSeriesQuery extends GatewayUsageFilter {
  /** Periods of a day, or of an ISO week (starting on Monday). */
  interval: 'day' | 'week'
  /** Unset: periods in time order (`order: 'desc'` reverses it); set: ordered by that total. */
  sortBy?: 'requests' | 'bytes' | undefined
  order?: 'asc' | 'desc' | undefined
  limit?: number | undefined
}

export interface UsageTimeSeries {
  totalRequests: number
  totalBytes: number
  /** Only periods with counts; `start` is the period's first day. */
  periods: { start: string; requests: number; bytes: number }[]
}

export interface UsageOperations {
  /**
   * Counts one gateway answer in memory; {@link UsageOperations.flush} writes the counts. Does no
   * I/O, so there is nothing for a signal to stop (options are taken as by every operation).
   */
  recordGatewayHit(hit: GatewayHit, options?: CallOptions): void
  /**
   * Writes the counts held in memory to the record store in one batch and returns how many
   * totals it wrote. The host calls it every few seconds and at shutdown; what a crash loses is
   * what was counted since the last flush. On failure the counts are kept for the next one.
   */
  flush(options?: CallOptions): Promise<number>
  /** The tenant's gateway totals grouped by CID or file name (this process's counts flushed first). */
  rank(
    actor: Actor,
    query: UsageRankingQuery,
    options?: CallOptions,
  ): Promise<{ value: string; requests: number; bytes: number }[]>
  /** The tenant's gateway totals per day or week. */
  timeSeries(actor: Actor, query: UsageTimeSeriesQuery, options?: CallOptions): Promise<UsageTimeSeries>
  /** How many files the tenant holds and their total size. */
  storage(actor: Actor, options?: CallOptions): Promise<StorageUsage>
}
