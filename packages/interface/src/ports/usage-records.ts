/**
 * Usage: what each tenant's gateway served (requests and bytes, counted by day) and what it
 * stores. Gateway counts arrive in batches that core aggregated in memory, never a write per
 * request.
 */

import type { CallOptions } from '../call-options.js'

/**
 * The `cid` of the row that counts a tenant's requests of a day past its cap on distinct rows
 * (file name `''`, status 0): never a CID, so no request for a real CID lands there by name.
 */
export const OTHER_USAGE_CID = 'other'

/** `count` moved to its tenant's day's {@link OTHER_USAGE_CID} row. */
export function asOtherUsage<T extends GatewayUsageCount>(count: T): T {
  return { ...count, cid: OTHER_USAGE_CID, fileName: '', status: 0 }
}

/** Requests and bytes served for one tenant, UTC day, CID, file name and HTTP status. */
export interface GatewayUsageCount {
  tenantId: string
  /** A UTC day, `YYYY-MM-DD`. */
  day: string
  cid: string
  /** The name of the tenant's file of that CID; `''` when it has none. */
  fileName: string
  status: number
  requests: number
  bytes: number
}

/** Which counts a usage query adds up (all of one tenant). */
export interface GatewayUsageQuery {
  /** First and last UTC day included, `YYYY-MM-DD`. */
  from: string
  to: string
  cid?: string | undefined
  fileName?: string | undefined
}

export interface GatewayUsageTotal {
  requests: number
  bytes: number
}

export interface GatewayUsageRanking {
  /** What the counts are grouped by. */
  by: 'cid' | 'fileName'
  sortBy: 'requests' | 'bytes'
  order: 'asc' | 'desc'
  /** At least 1. */
  limit: number
}

export interface StorageUsage {
  /** Files the tenant holds, on both networks. */
  files: number
  /** The sum of their sizes in bytes. */
  bytes: number
}

export interface UsageRecordStore {
  /**
   * Adds each count to the stored total of its (tenant, day, CID, file name, status), creating the
   * total when there is none; all of one call or nothing. Concurrent calls (several servers
   * flushing) add up: no count is lost or counted twice.
   *
   * A (tenant, day) keeps at most `limits.rowsPerTenantDay` totals besides its
   * {@link OTHER_USAGE_CID} row: a count that would create one more is added to that row instead
   * (`cid` `other`, file name `''`, status 0), so requests and bytes still add up. The bound holds
   * across concurrent calls.
   */
  addGatewayUsage(
    counts: readonly GatewayUsageCount[],
    limits: { rowsPerTenantDay: number },
    options?: CallOptions,
  ): Promise<void>

  /**
   * The tenant's totals grouped by CID or file name, ordered by `sortBy` in `order` (ties by the
   * grouped value, ascending), at most `limit`.
   */
  rankGatewayUsage(
    tenantId: string,
    query: GatewayUsageQuery,
    ranking: GatewayUsageRanking,
    options?: CallOptions,
  ): Promise<(GatewayUsageTotal & { value: string })[]>

  /** The tenant's totals per UTC day, oldest first; days without counts are left out. */
  gatewayUsageByDay(
    tenantId: string,
    query: GatewayUsageQuery,
    options?: CallOptions,
  ): Promise<(GatewayUsageTotal & { day: string })[]>
}
