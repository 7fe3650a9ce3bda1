import type {
  BlobStore,
  BlockFetcher,
  ChangeFeed,
  Clock,
  IdSource,
  RecordStore,
  TenantLimits,
} from '@pinfold/interface'
import type { LeafHashing } from '../content/unixfs/one-pass-file.js'
import type { ContentPolicy } from '../denylist/content-policy.js'
import type { GatewayReadCache } from '../gateway/read-cache.js'
import type { WebhookSettings } from '../webhooks/settings.js'
import type { ServiceFeatures } from './features.js'

/** What every service operation may use. Built once by `createFileService`. */
export interface ServiceContext {
  records: RecordStore
  blobs: BlobStore
  clock: Clock
  ids: IdSource
  /** Largest accepted upload, in bytes. */
  maxUploadBytes: number
  /** Where a single-request upload's leaves are hashed (`FileServiceOptions.uploadHashing`, `auto` decided). */
  uploadHashing: LeafHashing
  /**
   * The optional features (signed URLs, download links, payments, vectors) and their prerequisites:
   * operations ask `features.require(name)` rather than checking options themselves.
   */
  features: ServiceFeatures
  /** Where pin-by-CID jobs fetch blocks, asked in this order. */
  blockFetchers: readonly BlockFetcher[]
  pinning: PinSettings
  /** Distinct gateway usage rows per tenant and UTC day (see `FileServiceOptions.maxUsageRowsPerDay`). */
  usageRowsPerDay: number
  resumable: ResumableUploadSettings
  /** What the gateway keeps between requests; `records` tells it of every change it depends on. */
  gatewayCache: GatewayReadCache
  /** Every tenant's limits unless the operator overrode them (`null`: no limit). */
  quotaDefaults: TenantLimits
  /** The deny lists every read, pin and announcement is checked against (empty unless configured). */
  deny: ContentPolicy
  /** Holders of a blocked root read per page (`FileServiceOptions.denylistHolderPageSize`). */
  denyHolderPage: number
  /** Bounds and timings of webhook deliveries. */
  webhooks: WebhookSettings
  /**
   * Where instances sharing the record store announce changes to what they keep in memory
   * (`gatewayCache.changes`): the read cache's facts, the operator's deny rules.
   */
  changes: ChangeFeed | undefined
}

/** A step of a resumable upload's completion, in order (see `ResumableUploadSettings.checkpoint`). */
export type CompletionStep = 'claimed' | 'assembled' | 'dag-closed' | 'recorded'

/** How resumable (tus) uploads complete (`createFileService({ resumableUploads })`, defaults filled in). */
export interface ResumableUploadSettings {
  /**
   * How long a completion's claim lasts without renewal (it is renewed while the completion runs):
   * after a crash, a retry at the final offset takes the completion over this long after the claim
   * was last renewed.
   */
  completionLeaseMs: number
  /**
   * For crash tests only (off unless given): awaited each time a completion has passed a step
   * (`claimed`: it holds the claim; `assembled`: the staged blob is whole; `dag-closed`: the DAG is
   * closed and its leaves indexed; `recorded`: the file record exists, the session not yet deleted).
   * A test halts the completion there by never settling, then kills the process.
   */
  checkpoint?: ((step: CompletionStep, sessionId: string) => Promise<void>) | undefined
}

/** Bounds and timings of pin-by-CID jobs (`createFileService({ pinning })`, defaults filled in). */
export interface PinSettings {
  /** Largest DAG a job stores (sum of its distinct blocks), in bytes. */
  maxBytes: number
  maxBlocks: number
  /** A job still running after this long ends `timed_out`. */
  jobTimeoutMs: number
  /**
   * How long one source may take to answer for one block before the next source is asked (a
   * source that accepts and never answers must not hold the worker until the job's own limit).
   */
  blockTimeoutMs: number
  /** Blocks a job fetches at the same time. */
  concurrency: number
  /** How long a claim lasts without renewal; a crashed worker's job is taken over after it. */
  leaseMs: number
  /** Claims of one request before it is given up (each crash of the process running it is one). */
  maxAttempts: number
  /** Requests one tenant may have queued or running; over it `add` is `RATE_LIMITED`. */
  maxQueuedPerTenant: number
  /** Requests of one tenant running at once, across every process sharing the queue. */
  maxRunningPerTenant: number
}
