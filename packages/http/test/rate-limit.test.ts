import { describe, expect, it } from 'vitest'
import { createBuckets, createRateLimiter } from '../src/middleware/rate-limit.js'

describe('rate limit - buckets', () => {
  it('take - allows `limit` requests, then answers the wait until the next one', () => {
    let now = 0
    const buckets = createBuckets({ limit: 3, windowMs: 60_000 }, () => now)
    expect([buckets.take('k'), buckets.take('k'), buckets.take('k')]).toEqual([undefined, undefined, undefined])
    expect(buckets.take('k')).toBe(20_000)
    now = 19_999
    expect(buckets.take('k')).toBeGreaterThan(0)
    now = 40_000
    expect(buckets.take('k')).toBeUndefined()
  })

  it('take - keys are independent', () => {
    const buckets = createBuckets({ limit: 1, windowMs: 1000 }, () => 0)
    expect(buckets.take('a')).toBeUndefined()
    expect(buckets.take('b')).toBeUndefined()
    expect(buckets.take('a')).toBe(1000)
  })

  it('limiter - a refused request is RATE_LIMITED with whole seconds to wait', () => {
    const limiter = createRateLimiter({ perIp: { limit: 1, windowMs: 60_000 }, now: () => 0 })
    limiter.checkAddress('10.0.0.1')
    let caught: unknown
    try {
      limiter.checkAddress('10.0.0.1')
    } catch (err) {
      caught = err
    }
    expect(caught).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 60 } })
    expect(() => limiter.checkActor({ tenantId: 'acme', userId: 'u' })).not.toThrow() // no per-token rule
  })

  it('buckets - an invalid rule is refused at start-up', () => {
    expect(() => createBuckets({ limit: 0, windowMs: 1000 })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    )
  })
})
