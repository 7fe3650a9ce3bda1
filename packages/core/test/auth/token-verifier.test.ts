import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTokenVerifier, mintToken } from '../../src/index.js'

const SECRET = 'a-token-secret-that-is-long-enough-0123456789'

describe('createTokenVerifier', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('verify - a remembered token still stops working at its exp', async () => {
    vi.useFakeTimers({ now: new Date('2026-06-01T00:00:00Z') })
    const verifier = createTokenVerifier({ secret: SECRET })
    const token = await mintToken(SECRET, { sub: 'alice', scopes: ['org:files:read'], expiresIn: 30 })
    expect((await verifier.verify(token)).userId).toBe('alice')
    vi.setSystemTime(new Date('2026-06-01T00:00:20Z'))
    expect((await verifier.verify(token)).userId).toBe('alice')
    vi.setSystemTime(new Date('2026-06-01T00:00:31Z'))
    await expect(verifier.verify(token)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
  })

  it('verify - a token that failed is never remembered as valid', async () => {
    const verifier = createTokenVerifier({ secret: SECRET })
    const forged = await mintToken('another-secret-that-is-long-enough-0123456789', {
      sub: 'mallory',
      scopes: [],
      expiresIn: '1h',
    })
    await expect(verifier.verify(forged)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    await expect(verifier.verify(forged)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
  })

  it('createTokenVerifier - a short secret is refused at construction', () => {
    expect(() => createTokenVerifier({ secret: 'short' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
  })
})
