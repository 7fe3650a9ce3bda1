import { describe, expect, it } from 'vitest'
import { createUrlSigner } from '../../src/index.js'

describe('createUrlSigner', () => {
  const signer = createUrlSigner('a-secret-that-is-long-enough-for-hmac-0123', 'upload')
  const params = (extra: Record<string, string> = {}) =>
    new URLSearchParams({ 'X-Date': '1700000000', 'X-Expires': '60', 'X-Method': 'POST', ...extra })

  it('verify - accepts what sign produced, in any parameter order', () => {
    const p = params()
    p.set('X-Signature', signer.sign('/v3/files/abc', p))
    const reordered = new URLSearchParams([...p].reverse())
    expect(signer.verify('/v3/files/abc', reordered)).toBe(true)
  })

  it('verify - refuses a changed path, a changed, added or removed parameter, and a bad signature', () => {
    const p = params()
    const signature = signer.sign('/v3/files/abc', p)
    const withSig = (q: URLSearchParams) => {
      q.set('X-Signature', signature)
      return q
    }
    expect(signer.verify('/v3/files/abd', withSig(params()))).toBe(false)
    expect(signer.verify('/v3/files/abc', withSig(params({ 'X-Expires': '61' })))).toBe(false)
    expect(signer.verify('/v3/files/abc', withSig(params({ extra: '1' })))).toBe(false)
    const removed = params()
    removed.delete('X-Method')
    expect(signer.verify('/v3/files/abc', withSig(removed))).toBe(false)
    expect(signer.verify('/v3/files/abc', params({ 'X-Signature': 'AAAA' }))).toBe(false)
    expect(signer.verify('/v3/files/abc', params())).toBe(false)
  })

  it('verify - a signature made for another purpose or secret is refused', () => {
    const p = params()
    p.set('X-Signature', createUrlSigner('a-secret-that-is-long-enough-for-hmac-0123', 'download').sign('/x', p))
    expect(signer.verify('/x', p)).toBe(false)
    p.set('X-Signature', createUrlSigner('another-secret-that-is-long-enough-012345', 'upload').sign('/x', p))
    expect(signer.verify('/x', p)).toBe(false)
  })
})
