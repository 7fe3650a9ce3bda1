import type { WebhookBackoff } from './backoff.js'

/**
 * What one attempt came to, for metrics: `delivered` (2xx), `retried` (another attempt is
 * scheduled), `failed` (out of attempts), `refused` (the host resolved to a refused address).
 */
export type WebhookAttemptResult = 'delivered' | 'retried' | 'failed' | 'refused'

/** Bounds and timings of webhook deliveries (`createFileService({ webhooks })`, defaults filled in). */
export interface WebhookSettings {
  /** One attempt (connect, send, answer) ends after this long, as a failure. */
  timeoutMs: number
  /** An answer's body is read to at most this many bytes (then dropped): a receiver cannot make us read more. */
  maxResponseBytes: number
  /** Attempts of one delivery before it is `failed` for good. */
  maxAttempts: number
  backoff: WebhookBackoff
  /** How long a claim lasts; longer than `timeoutMs`, so a live attempt is never taken over. */
  leaseMs: number
  /** Deliveries of one owner (a tenant, or the operator) being sent at once, across every process. */
  maxRunningPerTenant: number
  /** Deliveries to one endpoint being sent at once, across every process: a hanging endpoint holds no more. */
  maxRunningPerEndpoint: number
  /** Endpoints one owner may register. */
  maxEndpointsPerOwner: number
  /** Events one fan-out takes from the journal. */
  fanOutBatch: number
  /** How long ended deliveries (delivered, failed) stay listed before `prune` deletes them; 0 keeps them. */
  retentionMs: number
  /**
   * An endpoint every attempt to which has failed for this long (no 2xx since its first failure)
   * is disabled, with an `endpoint.disabled` entry in the audit log; its queued deliveries wait
   * until its owner enables it again. 0 never disables one. As Svix does, after 5 days by default:
   * long enough to outlast a weekend's outage, short enough that a dead URL stops costing attempts.
   */
  disableAfterMs: number
  /**
   * After a secret is rotated, deliveries are signed with the old secret too for this long (two
   * signatures in `webhook-signature`, as Standard Webhooks allows), so receivers can switch
   * without dropping a delivery. 0 signs with the new one only, at once.
   */
  secretGraceMs: number
  /** Told what each attempt came to (the server counts them). */
  onAttempt?: ((result: WebhookAttemptResult) => void) | undefined
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  timeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
  maxAttempts: 10,
  backoff: { baseMs: 30_000, maxMs: 6 * 60 * 60_000 },
  leaseMs: 60_000,
  maxRunningPerTenant: 4,
  maxRunningPerEndpoint: 1,
  maxEndpointsPerOwner: 20,
  fanOutBatch: 100,
  retentionMs: 30 * 24 * 60 * 60_000,
  disableAfterMs: 5 * 24 * 60 * 60_000,
  secretGraceMs: 24 * 60 * 60_000,
}
