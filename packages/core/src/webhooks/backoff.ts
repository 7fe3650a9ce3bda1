/** When the retries of a delivery happen (`createFileService({ webhooks })`, defaults filled in). */
export interface WebhookBackoff {
  /** The wait after the first failed attempt; it doubles with each further one. */
  baseMs: number
  /** The longest wait between two attempts. */
  maxMs: number
}

/**
 * The wait before attempt `attempts + 1`, after `attempts` failed ones: exponential, capped, with
 * "equal jitter" (half fixed, half random), so endpoints that failed together (an outage) are not
 * all retried in the same instant, and no retry comes sooner than half its step.
 */
export function retryDelayMs(attempts: number, backoff: WebhookBackoff, random: () => number = Math.random): number {
  const step = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1))
  return Math.round(step / 2 + random() * (step / 2))
}
