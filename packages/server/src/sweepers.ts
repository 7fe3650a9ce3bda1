import type { FileService } from '@pinfold/core'

export interface SweeperOptions {
  /** How often files past their `expires_at` are deleted; default one minute, 0 disables. */
  expiryIntervalMs?: number | undefined
  /** How often abandoned resumable (tus) uploads and their parts are removed; default one hour. */
  sessionIntervalMs?: number | undefined
  /**
   * How often blobs no record owns (left by crashed uploads) are deleted; default one hour, 0
   * disables. Listing every blob is costly on large buckets, hence the longer period.
   */
  orphanIntervalMs?: number | undefined
  /**
   * How often gateway usage counted in memory is written to the record store; default 5 s. A
   * crash loses at most the counts of this interval (the server flushes them when it stops).
   */
  usageFlushIntervalMs?: number | undefined
  /** How often ended webhook deliveries past their retention are deleted; default one hour, 0 disables. */
  webhookPruneIntervalMs?: number | undefined
  /**
   * Days the audit log keeps an event; older ones are deleted hourly (whether or not the webhooks
   * have fanned them out). Default 365; 0 keeps every event.
   */
  auditRetentionDays?: number | undefined
  /** How often the audit log's retention runs; default one hour. */
  auditIntervalMs?: number | undefined
  onError?: ((task: string, error: unknown) => void) | undefined
}

/**
 * Runs the service's housekeeping on timers: expired files, abandoned tus uploads, orphan blobs,
 * the gateway usage counts and the audit log's retention. One run of each task at a time; a failing run is reported and the next
 * runs on schedule. The timers do not keep the process alive. Returns a function that stops them.
 */
const DAY_MS = 24 * 60 * 60_000

export function startSweepers(service: FileService, options: SweeperOptions = {}): () => void {
  const onError = options.onError ?? ((task, error) => console.error(`pinfold: ${task} failed`, error))
  const stops = [
    every(
      options.expiryIntervalMs ?? 60_000,
      () => service.expiry.sweep(),
      (error) => onError('expiry sweep', error),
    ),
    every(
      options.orphanIntervalMs ?? 60 * 60_000,
      () => service.maintenance.sweepOrphanBlobs(),
      (error) => onError('orphan blob sweep', error),
    ),
    every(
      options.sessionIntervalMs ?? 60 * 60_000,
      () => service.uploads.sweepExpiredSessions(),
      (error) => onError('upload session sweep', error),
    ),
    every(
      service.features.webhooks ? (options.webhookPruneIntervalMs ?? 60 * 60_000) : 0,
      () => service.webhooks.prune(),
      (error) => onError('webhook delivery prune', error),
    ),
    every(
      (options.auditRetentionDays ?? 365) > 0 ? (options.auditIntervalMs ?? 60 * 60_000) : 0,
      () => service.events.prune(new Date(Date.now() - (options.auditRetentionDays ?? 365) * DAY_MS)),
      (error) => onError('audit log retention', error),
    ),
    every(
      options.usageFlushIntervalMs ?? 5_000,
      () => service.usage.flush(),
      (error) => onError('usage flush', error),
    ),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}

function every(intervalMs: number, task: () => Promise<unknown>, onError: (error: unknown) => void): () => void {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) return () => {}
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    task()
      .catch(onError)
      .finally(() => {
        running = false
      })
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
