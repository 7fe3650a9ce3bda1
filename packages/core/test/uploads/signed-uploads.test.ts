import { describe, expect, it } from 'vitest'
import { SIGNATURE_PARAM, type SignUploadRequest } from '../../src/index.js'
import {
  alice,
  createTestService,
  mallory,
  START,
  storedNothing,
  type TestService,
  uploadFile,
  withParam,
} from '../support/test-service.js'

/** Signs an upload URL for alice and verifies it back, as the HTTP layer does on arrival. */
async function grantFor(test: TestService, request: Partial<SignUploadRequest> = {}) {
  const { path, query } = await test.service.uploads.signed.sign(alice, { expires: 60, ...request })
  return { path, query, grant: () => test.service.uploads.signed.verify(path, query) }
}

describe('signed upload URLs', () => {
  it("sign - the URL grants the signer's tenant until date + expires", async () => {
    const test = createTestService()
    const { path, grant } = await grantFor(test, { expires: 90 })
    expect(path).toMatch(/^\/v3\/files\/\S+$/)
    expect(grant()).toMatchObject({ actor: alice, expiresAt: new Date(START.getTime() + 90_000) })
    test.clock.advance(89_999)
    grant()
    test.clock.advance(1)
    expect(grant).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }))
  })

  it("upload - a grant's network, name, group and keyvalues win; its size and type limits hold", async () => {
    const test = createTestService()
    const group = await test.service.groups.create(alice, 'public', { name: 'inbox' })
    const { grant } = await grantFor(test, {
      network: 'public',
      filename: 'from-a-form.txt',
      groupId: group.id,
      keyvalues: { source: 'form' },
      maxFileSize: 16,
      allowMimeTypes: ['text/plain'],
    })
    const { actor, constraints } = grant()
    const asked = { network: 'private', name: 'mine', keyvalues: { source: 'me' } } as const
    const { file } = await uploadFile(test.service, actor, 'short text', asked, { constraints, path: 'a.txt' })
    expect(file).toMatchObject({ network: 'public', name: 'from-a-form.txt', groupId: group.id })
    expect(file.keyvalues).toEqual({ source: 'form' })
    await expect(
      uploadFile(test.service, actor, 'a text that is too long', {}, { constraints, path: 'a.txt' }),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
    await expect(
      uploadFile(test.service, actor, '<html><body>hi</body></html>', {}, { constraints, path: 'a.html' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(test.blobs.count).toBe(1)
  })

  it.each([
    ['a larger size limit', 'X-Grant', Buffer.from(JSON.stringify({ t: 'acme', u: 'alice' })).toString('base64url')],
    ['a longer life', 'X-Expires', '999999'],
    ['another user', 'X-User-ID', mallory.userId],
    ['a forged signature', SIGNATURE_PARAM, 'AAAA'],
  ])('verify - a URL changed to give %s is FORBIDDEN', async (_what, name, value) => {
    const test = createTestService()
    const { path, query } = await grantFor(test, { maxFileSize: 1 })
    expect(() => test.service.uploads.signed.verify(path, withParam(query, name, value))).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    )
  })

  it('verify - another path is FORBIDDEN; no signature is UNAUTHENTICATED', async () => {
    const test = createTestService()
    const { path, query } = await grantFor(test)
    expect(() => test.service.uploads.signed.verify('/v3/files/other', query)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    )
    const unsigned = withParam(query, SIGNATURE_PARAM, undefined)
    expect(() => test.service.uploads.signed.verify(path, unsigned)).toThrow(
      expect.objectContaining({ code: 'UNAUTHENTICATED' }),
    )
  })

  it('sign - every URL has its own path, so no two share a signature', async () => {
    const test = createTestService()
    const [first, second] = [await grantFor(test), await grantFor(test)]
    expect(first.path).not.toBe(second.path)
    expect(first.query.get(SIGNATURE_PARAM)).not.toBe(second.query.get(SIGNATURE_PARAM))
  })

  it("sign - another tenant's group is NOT_FOUND", async () => {
    const test = createTestService()
    const group = await test.service.groups.create(mallory, 'public', { name: 'theirs' })
    await expect(grantFor(test, { groupId: group.id })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it.each([
    ['a zero lifetime', { expires: 0 }],
    ['a date more than 5 minutes ahead', { date: START.getTime() / 1000 + 301 }],
    ['a validity already over', { date: START.getTime() / 1000 - 120, expires: 60 }],
    ['a negative size limit', { maxFileSize: -1 }],
    ['a MIME type list that is no list', { allowMimeTypes: 'image/png' as never }],
    ['an unknown network', { network: 'intranet' as never }],
  ])('sign - %s is INVALID_INPUT', async (_what, request) => {
    const test = createTestService()
    await expect(grantFor(test, request)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await storedNothing(test)).toBe(true)
  })

  it('sign - a service without a signing secret refuses with UNAVAILABLE (the feature is off)', async () => {
    const test = createTestService({ signingSecret: undefined })
    await expect(grantFor(test)).rejects.toMatchObject({ code: 'UNAVAILABLE' })
  })
})
