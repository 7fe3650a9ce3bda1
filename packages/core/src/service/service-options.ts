import { availableParallelism } from 'node:os'
import type { Clock, Embedder, IdSource, TenantLimits } from '@pinfold/interface'
import { invalid, type OptionChecks, optionChecks } from '@pinfold/interface'
import { v7 as uuidv7 } from 'uuid'
import type { LeafHashing } from '../content/unixfs/one-pass-file.js'
import { type ContentPolicy, createContentPolicy } from '../denylist/content-policy.js'
import { Denylists } from '../denylist/denylists.js'
import { invalidatingRecords } from '../gateway/fact-changes.js'
import { createGatewayReadCache, DEFAULT_GATEWAY_CACHE, type GatewayCacheSettings } from '../gateway/read-cache.js'
import { checkPaymentSettings } from '../payments/payments.js'
import { applyOverrides, UNLIMITED, validateOverrides } from '../quotas/limits.js'
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../webhooks/settings.js'
import type { PinSettings, ResumableUploadSettings, ServiceContext } from './context.js'
import { resolveFeatures } from './features.js'
import type { FileServiceOptions } from './file-service.js'

export const systemClock: Clock = { now: () => new Date() }

export const uuidIds: IdSource = {
  recordId: () => uuidv7(),
  // time-ordered keys keep a store's listing roughly chronological, which helps orphan sweeps
  blobKey: () => `blobs/${uuidv7()}`,
}

/** Pinata's upload limit. */
const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 ** 3
/** Holders of a blocked root told per page: a bound on memory and on an operator rule's transaction. */
const DEFAULT_DENY_HOLDER_PAGE = 1000
/** A resumable upload's completion claim lasts this long without renewal. */
export const DEFAULT_COMPLETION_LEASE_MS = 30_000
/** An HMAC key shorter than its hash's output (SHA-256) weakens every URL signed with it. */
const MIN_SECRET_BYTES = 32
/**
 * Cores from which `uploadHashing: 'auto'` hashes on the thread pool. On 2 cores the pool's hashing
 * competed with the client, the pool's file writes and the main thread, and no upload got faster
 * (bench/README.md, "thread pool").
 */
const POOL_HASHING_MIN_CORES = 4

/** `FileServiceOptions.uploadHashing`: where a single-request upload's leaves are hashed, or `auto`. */
export type UploadHashing = LeafHashing | 'auto'
const UPLOAD_HASHINGS: readonly UploadHashing[] = ['main-thread', 'thread-pool', 'auto']

/**
 * Every `createFileService` option checked once, at construction, and the features they turn on
 * decided there: a misconfiguration is a start-up error, never a failure of some later request.
 */
export function checkServiceOptions(options: FileServiceOptions): ServiceContext {
  const check = optionChecks('@pinfold/core', 'createFileService')
  check.require('records', typeof options?.records === 'object' && options.records !== null, 'is required')
  check.require('blobs', typeof options.blobs === 'object' && options.blobs !== null, 'is required')
  const { clock, ids, payments, embedder, gatewayPlugins } = options
  if (clock !== undefined) check.require('clock', typeof clock?.now === 'function', 'must have a now() method')
  if (ids !== undefined) {
    const methods = typeof ids?.recordId === 'function' && typeof ids.blobKey === 'function'
    check.require('ids', methods, 'must have recordId() and blobKey() methods')
  }
  if (options.signingSecret !== undefined) check.secret('signingSecret', options.signingSecret, MIN_SECRET_BYTES)
  if (options.paymentSettings !== undefined) checkPaymentSettings(check, options.paymentSettings)
  if (payments !== undefined) {
    const methods = typeof payments?.verify === 'function' && typeof payments.settle === 'function'
    check.require('payments', methods, 'must be a payment verifier (verify and settle)')
  }
  if (embedder !== undefined) checkEmbedder(check, embedder)
  check.optionalFunction('textExtractor', options.textExtractor)
  check.optionalFunction('resolveTxt', options.resolveTxt)
  check.optionalHostname('gatewayDomain', options.gatewayDomain)
  if (gatewayPlugins !== undefined) {
    const plugins = Array.isArray(gatewayPlugins) && gatewayPlugins.every((p) => typeof p === 'object' && p !== null)
    check.require('gatewayPlugins', plugins, 'must be an array of plugins')
    // clients put `image` in an <img src>: a relative or empty one would point at their own origin
    const images = gatewayPlugins.every((p) => typeof p.image === 'string' && URL.canParse(p.image))
    check.require('gatewayPlugins', images, "must give each plugin's image as an absolute URL")
  }
  const fetchers = options.blockFetchers ?? []
  check.require(
    'blockFetchers',
    Array.isArray(fetchers) && fetchers.every((f) => typeof f?.getBlock === 'function' && typeof f.name === 'string'),
    'must be an array of block fetchers (name and getBlock)',
  )
  const maxUploadBytes = check.nonNegativeInteger('maxUploadBytes', options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES)
  const cacheSettings = checkGatewayCacheSettings(check, options.gatewayCache ?? {})
  const gatewayCache = createGatewayReadCache(cacheSettings)
  return {
    // every operation writes through this store, so none can change a fact the cache keeps unseen
    records: invalidatingRecords(options.records, gatewayCache),
    blobs: options.blobs,
    clock: clock ?? systemClock,
    ids: ids ?? uuidIds,
    maxUploadBytes,
    uploadHashing: checkUploadHashing(check, options.uploadHashing ?? 'auto'),
    features: resolveFeatures(options),
    blockFetchers: [...fetchers],
    pinning: checkPinSettings(check, options.pinning ?? {}, maxUploadBytes),
    usageRowsPerDay: check.positiveInteger('maxUsageRowsPerDay', options.maxUsageRowsPerDay ?? 10_000),
    resumable: checkResumableSettings(check, options.resumableUploads ?? {}),
    gatewayCache,
    quotaDefaults: checkQuotaDefaults(options.quotas),
    deny: checkDenySettings(check, options),
    denyHolderPage: check.positiveInteger(
      'denylistHolderPageSize',
      options.denylistHolderPageSize ?? DEFAULT_DENY_HOLDER_PAGE,
    ),
    webhooks: checkWebhookSettings(check, options),
    changes: cacheSettings.changes,
  }
}

function checkUploadHashing(check: OptionChecks, given: UploadHashing): LeafHashing {
  check.require('uploadHashing', UPLOAD_HASHINGS.includes(given), 'must be "main-thread", "thread-pool" or "auto"')
  if (given !== 'auto') return given
  return availableParallelism() >= POOL_HASHING_MIN_CORES ? 'thread-pool' : 'main-thread'
}

function checkWebhookSettings(check: OptionChecks, options: FileServiceOptions): WebhookSettings {
  const transport = options.webhookTransport
  if (transport !== undefined) {
    const methods = typeof transport?.check === 'function' && typeof transport.post === 'function'
    check.require('webhookTransport', methods, 'must be a webhook transport (check and post)')
  }
  const given = options.webhooks ?? {}
  const d = DEFAULT_WEBHOOK_SETTINGS
  const timeoutMs = check.integerBetween('webhooks.timeoutMs', given.timeoutMs ?? d.timeoutMs, 100, 300_000)
  const leaseMs = check.positiveInteger('webhooks.leaseMs', given.leaseMs ?? Math.max(d.leaseMs, 2 * timeoutMs))
  // a lease shorter than an attempt would let a second worker send the same delivery while the first still waits
  check.require('webhooks.leaseMs', leaseMs > timeoutMs, 'must be longer than webhooks.timeoutMs')
  const baseMs = check.positiveInteger('webhooks.backoff.baseMs', given.backoff?.baseMs ?? d.backoff.baseMs)
  return {
    timeoutMs,
    leaseMs,
    maxResponseBytes: check.nonNegativeInteger(
      'webhooks.maxResponseBytes',
      given.maxResponseBytes ?? d.maxResponseBytes,
    ),
    maxAttempts: check.positiveInteger('webhooks.maxAttempts', given.maxAttempts ?? d.maxAttempts),
    backoff: {
      baseMs,
      maxMs: check.positiveInteger('webhooks.backoff.maxMs', given.backoff?.maxMs ?? Math.max(baseMs, d.backoff.maxMs)),
    },
    maxRunningPerTenant: check.positiveInteger(
      'webhooks.maxRunningPerTenant',
      given.maxRunningPerTenant ?? d.maxRunningPerTenant,
    ),
    maxRunningPerEndpoint: check.positiveInteger(
      'webhooks.maxRunningPerEndpoint',
      given.maxRunningPerEndpoint ?? d.maxRunningPerEndpoint,
    ),
    maxEndpointsPerOwner: check.positiveInteger(
      'webhooks.maxEndpointsPerOwner',
      given.maxEndpointsPerOwner ?? d.maxEndpointsPerOwner,
    ),
    fanOutBatch: check.integerBetween('webhooks.fanOutBatch', given.fanOutBatch ?? d.fanOutBatch, 1, 10_000),
    retentionMs: check.nonNegativeInteger('webhooks.retentionMs', given.retentionMs ?? d.retentionMs),
    disableAfterMs: check.nonNegativeInteger('webhooks.disableAfterMs', given.disableAfterMs ?? d.disableAfterMs),
    secretGraceMs: check.nonNegativeInteger('webhooks.secretGraceMs', given.secretGraceMs ?? d.secretGraceMs),
    onAttempt: check.optionalFunction('webhooks.onAttempt', given.onAttempt),
  }
}

function checkGatewayCacheSettings(check: OptionChecks, given: Partial<GatewayCacheSettings>): GatewayCacheSettings {
  const changes = given.changes
  if (changes !== undefined) {
    const methods = typeof changes?.publish === 'function' && typeof changes.subscribe === 'function'
    check.require('gatewayCache.changes', methods, 'must be a change feed (publish and subscribe)')
  }
  return {
    maxBytes: check.nonNegativeInteger('gatewayCache.maxBytes', given.maxBytes ?? DEFAULT_GATEWAY_CACHE.maxBytes),
    ttlMs: check.positiveInteger('gatewayCache.ttlMs', given.ttlMs ?? DEFAULT_GATEWAY_CACHE.ttlMs),
    maxItemBytes: check.nonNegativeInteger(
      'gatewayCache.maxItemBytes',
      given.maxItemBytes ?? DEFAULT_GATEWAY_CACHE.maxItemBytes,
    ),
    changes,
  }
}

function checkDenySettings(check: OptionChecks, options: FileServiceOptions): ContentPolicy {
  const { denylists, denylistPrivateReads = true, onContentBlocked } = options
  check.require('denylists', denylists === undefined || denylists instanceof Denylists, 'must be a Denylists')
  check.require('denylistPrivateReads', typeof denylistPrivateReads === 'boolean', 'must be a boolean')
  check.optionalFunction('onContentBlocked', onContentBlocked)
  return createContentPolicy(denylists ?? new Denylists(), denylistPrivateReads, onContentBlocked ?? (() => {}))
}

function checkResumableSettings(check: OptionChecks, given: Partial<ResumableUploadSettings>): ResumableUploadSettings {
  check.optionalFunction('resumableUploads.checkpoint', given.checkpoint)
  return {
    // long enough to ride out a slow store between renewals, short enough that a client retrying
    // after a crash gets its upload completed within the minute
    completionLeaseMs: check.integerBetween(
      'resumableUploads.completionLeaseMs',
      given.completionLeaseMs ?? DEFAULT_COMPLETION_LEASE_MS,
      300,
      3_600_000,
    ),
    checkpoint: given.checkpoint,
  }
}

function checkPinSettings(check: OptionChecks, given: Partial<PinSettings>, maxUploadBytes: number): PinSettings {
  return {
    maxBytes: check.positiveInteger('pinning.maxBytes', given.maxBytes ?? maxUploadBytes),
    maxBlocks: check.positiveInteger('pinning.maxBlocks', given.maxBlocks ?? 1_000_000),
    jobTimeoutMs: check.positiveInteger('pinning.jobTimeoutMs', given.jobTimeoutMs ?? 30 * 60_000),
    blockTimeoutMs: check.positiveInteger('pinning.blockTimeoutMs', given.blockTimeoutMs ?? 20_000),
    concurrency: check.integerBetween('pinning.concurrency', given.concurrency ?? 8, 1, 256),
    // long enough to ride out a slow store, short enough that a crashed worker's job resumes soon
    leaseMs: check.integerBetween('pinning.leaseMs', given.leaseMs ?? 60_000, 300, 3_600_000),
    maxAttempts: check.positiveInteger('pinning.maxAttempts', given.maxAttempts ?? 5),
    maxQueuedPerTenant: check.positiveInteger('pinning.maxQueuedPerTenant', given.maxQueuedPerTenant ?? 100),
    // one, so a second tenant always finds a worker free in a deployment running two (the default)
    maxRunningPerTenant: check.positiveInteger('pinning.maxRunningPerTenant', given.maxRunningPerTenant ?? 1),
  }
}

/** `id` and `dimensions` name every vector the embedder makes; a bad one would fail each vectorize and query. */
function checkEmbedder(check: OptionChecks, embedder: Embedder): void {
  check.require('embedder', typeof embedder?.embed === 'function', 'must be an embedder (embed)')
  check.nonEmptyString('embedder.id', embedder.id)
  check.positiveInteger('embedder.dimensions', embedder.dimensions)
}

/** The deployment's default limits: each a non-negative integer or null (no limit); absent ones are null. */
function checkQuotaDefaults(given: FileServiceOptions['quotas']): TenantLimits {
  try {
    return applyOverrides(UNLIMITED, validateOverrides(given ?? {}))
  } catch (error) {
    throw invalid(`@pinfold/core createFileService: quotas: ${(error as Error).message}`)
  }
}
