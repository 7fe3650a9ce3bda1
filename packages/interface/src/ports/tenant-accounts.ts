/**
 * Tenant accounts: what each tenant stores under deduplication, kept incrementally as files come
 * and go (never a scan per question), and the limits an operator set for it.
 */

import type { CallOptions } from '../call-options.js'
import type { RecordedOptions } from './event-records.js'

/**
 * What one tenant stores. The rule for bytes under deduplication (docs/operations.md): a content
 * (one stored blob, keyed by CID) held by files of one tenant only is that tenant's alone
 * (`soleBytes`); a content held by files of k ≥ 2 tenants counts, in full, in the `sharedBytes` of
 * each of them. `soleBytes` summed over tenants plus each shared content once is the blob store.
 */
export interface TenantUsage {
  /** Its file records, both networks (expired ones not yet swept included: they hold bytes). */
  files: number
  /** The sum of its files' sizes: what Pinata's usage answers report (a duplicate counts twice). */
  logicalBytes: number
  /** Distinct contents its files reference. */
  contents: number
  /** Bytes of the contents only this tenant's files reference. */
  soleBytes: number
  /** Bytes of the contents its files share with at least one other tenant's. */
  sharedBytes: number
  /** Its pin-by-CID requests queued or running. */
  openPinRequests: number
  /** Its files with stored vectors. */
  vectorizedFiles: number
}

/** The figures {@link TenantUsage} keeps per tenant in the store (the rest are counted on demand, bounded by their limits). */
export type KeptTenantUsage = Pick<TenantUsage, 'files' | 'logicalBytes' | 'contents' | 'soleBytes' | 'sharedBytes'>

/** A tenant's limits; `null` is no limit. */
export interface TenantLimits {
  /** Logical bytes (the sum of its files' sizes). */
  storageBytes: number | null
  /** File records. */
  files: number | null
  /** The size of one file (or folder, or CAR). */
  fileBytes: number | null
  /** Pin-by-CID requests queued or running. */
  openPinRequests: number | null
  /** Authenticated API requests per minute. */
  requestsPerMinute: number | null
  /** Files with stored vectors. */
  vectorizedFiles: number | null
}

export const TENANT_LIMIT_NAMES = [
  'storageBytes',
  'files',
  'fileBytes',
  'openPinRequests',
  'requestsPerMinute',
  'vectorizedFiles',
] as const satisfies readonly (keyof TenantLimits)[]

/** An operator's overrides of the deployment's defaults: an absent limit is the default. */
export type TenantLimitOverrides = Partial<TenantLimits>

/** What `createFile` may not take a tenant past (checked and recorded in one atomic step). */
export interface FileQuota {
  /** Most file records the tenant may hold once the file is recorded. */
  maxFiles?: number | undefined
  /** Most logical bytes the tenant may hold once the file is recorded. */
  maxLogicalBytes?: number | undefined
}

/** Requests a process admitted for one tenant in one counting window, not yet added to the shared counter. */
export interface RequestCountIncrement {
  tenantId: string
  /** The window the requests fell in: a whole number (minutes since the epoch, for a minute window). */
  window: number
  /** Requests to add; 0 only reads. */
  count: number
}

/** A tenant's shared request counters around a window, as `addRequestCounts` answers them. */
export interface RequestCountTotals {
  /** Every process's requests in the window asked about. */
  current: number
  /** Every process's requests in the window before it. */
  previous: number
}

export interface TenantAccountRecordStore {
  /**
   * The kept figures of a tenant (all zero for one never seen). They change in the same atomic step
   * as the file records they count (`files.createFile`, `files.deleteFile`), so they always equal a
   * recount of the tenant's files and contents.
   */
  keptUsage(tenantId: string, options?: CallOptions): Promise<KeptTenantUsage>

  /** The tenant's vectorized files (counted, bounded by its limit). */
  vectorizedFiles(tenantId: string, options?: CallOptions): Promise<number>

  /** The operator's overrides for a tenant (`{}` when none). */
  getLimits(tenantId: string, options?: CallOptions): Promise<TenantLimitOverrides>

  /** Replaces the tenant's overrides as a whole (`{}` clears them); returns what is stored. */
  setLimits(tenantId: string, limits: TenantLimitOverrides, options?: RecordedOptions): Promise<TenantLimitOverrides>

  /**
   * Adds each increment to its tenant's shared request counter of its window, then answers, for
   * every tenant named in `increments`, the totals of window `window` and of the one before it
   * (zero where nothing was counted). Each addition is atomic: of concurrent calls from any
   * process, none loses another's counts. Processes call it about once a second with what they
   * admitted since their last call (the requests-per-minute quota), never once per request.
   */
  addRequestCounts(
    increments: readonly RequestCountIncrement[],
    window: number,
    options?: CallOptions,
  ): Promise<Map<string, RequestCountTotals>>

  /** Drops the counters of windows before `window` (they no longer decide anything). */
  dropRequestCountsBefore(window: number, options?: CallOptions): Promise<void>
}
