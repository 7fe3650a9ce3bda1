import { type Actor, type CallOptions, PinfoldError } from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'
import { type LimitSettings, limitsOf } from './limits.js'

/** How long a tenant's `requestsPerMinute` is trusted before it is read again. */
const LIMIT_TTL_MS = 10_000
/** Tenants whose buckets are kept; past it the idle ones go first (memory stays bounded). */
const MAX_TENANTS = 100_000
const MINUTE_MS = 60_000

interface Bucket {
  limit: number | null
  readAt: number
  tokens: number
  updated: number
}

/**
 * Each tenant's requests per minute, in a token bucket per process (refilled continuously, like
 * the per-token rate limit of the HTTP layer): behind N processes a tenant gets up to N times its
 * budget. The limit itself is read from the record store at most every {@link LIMIT_TTL_MS}.
 */
export function createRequestRate(ctx: LimitSettings & Pick<ServiceContext, 'clock'>) {
  const buckets = new Map<string, Bucket>()

  async function bucketOf(tenantId: string, now: number, options?: CallOptions): Promise<Bucket> {
    let bucket = buckets.get(tenantId)
    if (bucket && now - bucket.readAt < LIMIT_TTL_MS) return bucket
    let limit: number | null
    try {
      limit = (await limitsOf(ctx, tenantId, options)).requestsPerMinute
    } catch {
      // a record store hiccup must not turn every request into a 503: the last known limit holds
      // (none known: this request is not limited), and the next request reads again
      return bucket ?? { limit: null, readAt: now, tokens: 0, updated: now }
    }
    if (!bucket) {
      if (buckets.size >= MAX_TENANTS) buckets.delete(buckets.keys().next().value!)
      bucket = { limit, readAt: now, tokens: limit ?? 0, updated: now }
      buckets.set(tenantId, bucket)
    }
    bucket.limit = limit
    bucket.readAt = now
    return bucket
  }

  async function takeRequest(actor: Actor, options?: CallOptions): Promise<void> {
    const now = ctx.clock.now().getTime()
    const bucket = await bucketOf(actor.tenantId, now, options)
    if (bucket.limit === null) return
    const perMs = bucket.limit / MINUTE_MS
    bucket.tokens = Math.min(bucket.limit, bucket.tokens + (now - bucket.updated) * perMs)
    bucket.updated = now
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return
    }
    const seconds = bucket.limit === 0 ? 60 : Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000))
    throw new PinfoldError(
      'RATE_LIMITED',
      `the account may make ${bucket.limit} requests per minute; retry in ${seconds} s`,
      { details: { retryAfterSeconds: seconds } },
    )
  }

  return {
    takeRequest,
    /** Drops what this process holds of a tenant's limit, after an operator changed it. */
    forget: (tenantId: string) => buckets.delete(tenantId),
  }
}
