import { describe, expect, it } from 'vitest'
import { createRateLimiter } from '../src/middleware/rate-limit.js'

describe('rate limit - limiter', () => {
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
})
