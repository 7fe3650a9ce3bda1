import { describe, expect, it } from 'vitest'
import { type Actor, type DownloadLinkRequest, MAX_LINK_SECONDS, parseCid, SIGNATURE_PARAM } from '../../src/index.js'
import {
  alice,
  createTestService,
  mallory,
  START,
  type TestService,
  uploadFile,
  withParam,
} from '../support/test-service.js'

const BASE = 'https://files.example.com/api/'

/** Signs a link to `cid` and splits it into what `open` takes: the CID of its path and its query. */
async function link(test: TestService, actor: Actor, cid: string, request: Partial<DownloadLinkRequest> = {}) {
  const url = new URL(
    await test.service.downloadLinks.create(actor, { url: `/files/${cid}`, expires: 60, ...request }, BASE),
  )
  const [, linked] = /\/files\/([^/]+)$/.exec(url.pathname) ?? []
  return { url, cid: linked!, params: url.searchParams }
}

describe('download links', () => {
  it("create - a link opens the tenant's private file until date + expires", async () => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'private bytes')
    const { url, cid, params } = await link(test, alice, file.cid, { expires: '120' })
    expect(url.href.startsWith(`${BASE}files/${file.cid}?`)).toBe(true)
    expect(params.get('X-User-ID')).toBe(alice.tenantId)
    const opened = await test.service.downloadLinks.open(cid, params)
    expect(opened.file.id).toBe(file.id)
    expect(opened.expiresAt).toEqual(new Date(START.getTime() + 120_000))
    test.clock.advance(119_999)
    await test.service.downloadLinks.open(cid, params)
    test.clock.advance(1)
    await expect(test.service.downloadLinks.open(cid, params)).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('create - a past date starts the validity then; a date more than 5 minutes ahead is INVALID_INPUT', async () => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'x')
    const nowSeconds = START.getTime() / 1000
    const past = await link(test, alice, file.cid, { date: nowSeconds - 60, expires: 60 })
    await expect(test.service.downloadLinks.open(past.cid, past.params)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await link(test, alice, file.cid, { date: nowSeconds + 300 })
    await expect(link(test, alice, file.cid, { date: nowSeconds + 301 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })

  it.each([
    ['another tenant', 'X-User-ID', mallory.tenantId],
    ['a longer life', 'X-Expires', '999999'],
    ['an earlier start', 'X-Date', '0'],
    ['another method', 'X-Method', 'PUT'],
    ['a forged signature', SIGNATURE_PARAM, 'AAAA'],
  ])('open - a link changed to name %s is FORBIDDEN', async (_what, name, value) => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'x')
    const { cid, params } = await link(test, alice, file.cid)
    await expect(test.service.downloadLinks.open(cid, withParam(params, name, value))).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
  })

  it('open - a link used for another CID, unsigned, or signed with another secret is FORBIDDEN', async () => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'x')
    const { file: other } = await uploadFile(test.service, alice, 'y')
    const { cid, params } = await link(test, alice, file.cid)
    const open = (service: TestService['service'], at: string, query: URLSearchParams) =>
      expect(service.downloadLinks.open(at, query)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await open(test.service, other.cid, params)
    await open(test.service, cid, withParam(params, SIGNATURE_PARAM, undefined))
    await open(createTestService({ signingSecret: 'another secret that is long enough!!' }).service, cid, params)
  })

  it('open - a file deleted after signing is NOT_FOUND', async () => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'x')
    const { cid, params } = await link(test, alice, file.cid)
    await test.service.files.delete(alice, 'private', file.id)
    await expect(test.service.downloadLinks.open(cid, params)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('open - a file past its expires_at is NOT_FOUND before the expiry sweep deletes it', async () => {
    const test = createTestService()
    const expiresAt = new Date(test.clock.now().getTime() + 60_000)
    const { file } = await uploadFile(test.service, alice, 'short-lived', { expiresAt })
    const { cid, params } = await link(test, alice, file.cid, { expires: 3600 }) // the link outlives the file
    expect((await test.service.downloadLinks.open(cid, params)).file.id).toBe(file.id)
    test.clock.advance(60_000)
    await expect(test.service.downloadLinks.open(cid, params)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it("create - another tenant's CID is NOT_FOUND", async () => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'x')
    await expect(link(test, mallory, file.cid)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it("create - any spelling of the CID signs the held file's spelling", async () => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'x', { network: 'public', cidVersion: 'v0' })
    const { cid, params } = await link(test, alice, parseCid(file.cid).toV1().toString())
    expect(cid).toBe(file.cid)
    expect((await test.service.downloadLinks.open(cid, params)).file.id).toBe(file.id)
  })

  it.each([
    ['a url without /files/<cid>', { url: 'https://example.com/nothing' }],
    ['a url that is not a string', { url: 42 }],
    ['a zero lifetime', { expires: 0 }],
    ['a lifetime over a year', { expires: MAX_LINK_SECONDS + 1 }],
    ['a fractional lifetime', { expires: 1.5 }],
    ['another method', { method: 'POST' }],
  ])('create - %s is INVALID_INPUT', async (_what, given) => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'x')
    // as a JavaScript caller or an HTTP body may give it: the types do not hold
    const request = { url: `/files/${file.cid}`, expires: 60, ...given } as DownloadLinkRequest
    await expect(test.service.downloadLinks.create(alice, request, BASE)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })

  it('create - a service without a signing secret refuses with UNAVAILABLE (the feature is off)', async () => {
    const test = createTestService({ signingSecret: undefined })
    const { file } = await uploadFile(test.service, alice, 'x')
    await expect(link(test, alice, file.cid)).rejects.toMatchObject({ code: 'UNAVAILABLE' })
  })
})
