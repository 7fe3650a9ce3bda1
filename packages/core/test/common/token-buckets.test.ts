import { describe, expect, it } from 'vitest'
import { createTokenBuckets as createBuckets } from '../../src/common/token-buckets.js'

describe('token buckets', () => {
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

  it('buckets - an invalid rule is refused at start-up', () => {
    expect(() => createBuckets({ limit: 0, windowMs: 1000 })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    )
  })
})
