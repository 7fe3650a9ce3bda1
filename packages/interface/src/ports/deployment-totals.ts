import type { CallOptions } from '../call-options.js'
import type { PinRequestState } from './pin-request-records.js'

/** What the deployment stores, all tenants together. */
export interface StoredTotals {
  /** File records, both networks, expired ones not yet swept included. */
  files: number
  /** The sum of those files' sizes: what tenants see as stored (a content held twice counts twice). */
  logicalBytes: number
  /** Distinct contents the files hold (deduplicated: one blob each). */
  contents: number
  /** The sum of the contents' sizes: the bytes in the blob store, sidecars excepted. */
  physicalBytes: number
  /** Entries in the block index (a block held by two contents counts twice). */
  blocks: number
}

/** Pin-by-CID requests in one state, all tenants together. */
export interface PinStateTotal {
  state: PinRequestState
  count: number
  /** When the oldest request in this state was queued; undefined when there is none. */
  oldestCreatedAt: Date | undefined
}

/**
 * Aggregates over the whole deployment, for an operator's metrics. Each call reads every row it
 * sums (a scan: O(files) and O(block entries)); the caller bounds how often it asks.
 */
export interface DeploymentTotalsRecordStore {
  storedTotals(options?: CallOptions): Promise<StoredTotals>
  /** One entry per state, every state listed (count 0 when none). */
  pinStateTotals(options?: CallOptions): Promise<PinStateTotal[]>
}
