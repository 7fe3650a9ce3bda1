import { optionChecks } from '@pinfold/interface'

/** At most `limit` takes per `windowMs`, refilled continuously (a token bucket of `limit`). */
export interface TokenBucketRule {
  limit: number
  windowMs: number
}

interface Bucket {
  tokens: number
  updated: number
}

/** Buckets kept before idle (full) ones are dropped; bounds memory whatever keys clients invent. */
const MAX_BUCKETS = 100_000

/**
 * In-memory token buckets, one per key, in this process: the HTTP layer's per-address and
 * per-token limits. (A tenant's requests-per-minute quota is held across processes instead, by
 * the shared counters of `quotas/request-rate.ts`.) `owner` and `option` name the setting a bad
 * rule came from in the `INVALID_INPUT` thrown at creation.
 */
export function createTokenBuckets(
  rule: TokenBucketRule,
  now: () => number = Date.now,
  option = 'rateLimit',
  owner: [pkg: string, fn: string] = ['@pinfold/http', 'createFetchHandler'],
) {
  const check = optionChecks(...owner)
  check.positiveInteger(`${option}.limit`, rule?.limit)
  check.require(
    `${option}.windowMs`,
    rule.windowMs > 0,
    `must be a positive number of milliseconds, got ${rule.windowMs}`,
  )
  const perMs = rule.limit / rule.windowMs
  const buckets = new Map<string, Bucket>()

  function prune(at: number) {
    for (const [key, bucket] of buckets) {
      if (bucket.tokens + (at - bucket.updated) * perMs >= rule.limit) buckets.delete(key)
    }
  }

  return {
    /** Takes one from `key`'s budget; answers how many ms to wait when none is left. */
    take(key: string): number | undefined {
      const at = now()
      let bucket = buckets.get(key)
      if (!bucket) {
        if (buckets.size >= MAX_BUCKETS) prune(at)
        bucket = { tokens: rule.limit, updated: at }
        buckets.set(key, bucket)
      }
      bucket.tokens = Math.min(rule.limit, bucket.tokens + (at - bucket.updated) * perMs)
      bucket.updated = at
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return undefined
      }
      return (1 - bucket.tokens) / perMs
    },
    get size() {
      return buckets.size
    },
  }
}
