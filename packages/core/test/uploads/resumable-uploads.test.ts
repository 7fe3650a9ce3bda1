import { describe, expect, it } from 'vitest'
import { type CreateSessionRequest, UPLOAD_SESSION_TTL_MS } from '../../src/index.js'
import {
  alice,
  createTestService,
  patterned,
  START,
  storedNothing,
  streamOf,
  type TestService,
  uploadFile,
  utf8,
} from '../support/test-service.js'

/** Session parts live under `tus/<session id>/`; none may outlive its session. */
async function partCount(test: TestService): Promise<number> {
  let count = 0
  for await (const _ of test.blobs.list({ prefix: 'tus/' })) count++
  return count
}

async function session(test: TestService, bytes: Uint8Array, request: Partial<CreateSessionRequest> = {}) {
  const created = await test.service.uploads.create(alice, { length: bytes.length, options: {}, ...request })
  const append = (offset: number, part: Uint8Array) =>
    test.service.uploads.append(created.id, created.token, offset, streamOf(part))
  return { ...created, append }
}

describe('resumable uploads', () => {
  it('append - parts in order complete an upload identical to a one-shot upload, and the parts go', async () => {
    const test = createTestService()
    const bytes = patterned(600_000)
    const upload = await session(test, bytes, { fileName: 'video.bin', options: { network: 'public' } })
    expect((await upload.append(0, bytes.subarray(0, 250_000))).offset).toBe(250_000)
    expect(await partCount(test)).toBe(1)
    const last = await upload.append(250_000, bytes.subarray(250_000))
    expect(last.offset).toBe(600_000)
    expect(last.result?.file).toMatchObject({ name: 'video.bin', network: 'public', size: 600_000 })
    expect(await partCount(test)).toBe(0)
    const oneShot = await uploadFile(test.service, alice, bytes, { network: 'public' })
    expect(oneShot.file.cid).toBe(last.result?.file.cid)
    expect(oneShot.isDuplicate).toBe(true)
    await expect(test.service.uploads.status(upload.id, upload.token)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('append - a wrong offset is CONFLICT; a resend of the last part is acknowledged and stored once', async () => {
    const test = createTestService()
    const bytes = utf8('0123456789')
    const upload = await session(test, bytes)
    await upload.append(0, bytes.subarray(0, 4))
    await expect(upload.append(2, bytes.subarray(2, 6))).rejects.toMatchObject({ code: 'CONFLICT' })
    expect((await upload.append(0, bytes.subarray(0, 4))).offset).toBe(4)
    expect(await partCount(test)).toBe(1)
    const done = await upload.append(4, bytes.subarray(4))
    expect(done.result?.file.size).toBe(10)
  })

  it('append - bytes beyond the announced length are PAYLOAD_TOO_LARGE and leave no part', async () => {
    const test = createTestService()
    const upload = await session(test, utf8('1234'))
    await expect(upload.append(0, utf8('12345'))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
    expect(await partCount(test)).toBe(0)
    expect((await test.service.uploads.status(upload.id, upload.token)).offset).toBe(0)
  })

  it('status - a wrong token and a session idle past its lifetime are NOT_FOUND; each part renews it', async () => {
    const test = createTestService()
    const upload = await session(test, utf8('abcdef'))
    expect(upload.expiresAt).toEqual(new Date(START.getTime() + UPLOAD_SESSION_TTL_MS))
    await expect(test.service.uploads.status(upload.id, 'not-the-token')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    test.clock.advance(UPLOAD_SESSION_TTL_MS - 1)
    const renewed = await upload.append(0, utf8('abc'))
    expect(renewed.expiresAt).toEqual(new Date(START.getTime() + 2 * UPLOAD_SESSION_TTL_MS - 1))
    test.clock.advance(UPLOAD_SESSION_TTL_MS)
    await expect(test.service.uploads.status(upload.id, upload.token)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('terminate - removes the session and its parts', async () => {
    const test = createTestService()
    const upload = await session(test, utf8('abcdef'))
    await upload.append(0, utf8('abc'))
    await test.service.uploads.terminate(upload.id, upload.token)
    expect(await storedNothing(test)).toBe(true)
    await expect(upload.append(3, utf8('def'))).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('sweepExpiredSessions - removes abandoned sessions with their parts and keeps live ones', async () => {
    const test = createTestService()
    const abandoned = await session(test, utf8('abcdef'))
    await abandoned.append(0, utf8('abc'))
    test.clock.advance(UPLOAD_SESSION_TTL_MS / 2)
    const live = await session(test, utf8('abcdef'))
    await live.append(0, utf8('abc'))
    test.clock.advance(UPLOAD_SESSION_TTL_MS / 2)
    expect(await test.service.uploads.sweepExpiredSessions()).toBe(1)
    expect(await partCount(test)).toBe(1)
    expect((await live.append(3, utf8('def'))).result?.file.size).toBe(6)
  })

  it('create - a length over the limit is PAYLOAD_TOO_LARGE', async () => {
    const test = createTestService({ maxUploadBytes: 100 })
    await expect(session(test, patterned(101))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
    await expect(session(test, patterned(10), { constraints: { maxBytes: 5 } })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    })
  })

  it.each([
    ['a blank name', { name: ' ' }],
    ['a null keyvalue', { keyvalues: { a: null } as never }],
    ['an unknown network', { network: 'intranet' as never }],
    ['an unknown CID version', { cidVersion: 'v2' as never }],
    ['an expiry already past', { expiresAt: START }],
  ])('create - %s, which the completion would refuse, is INVALID_INPUT before any byte', async (_what, options) => {
    const test = createTestService()
    await expect(session(test, patterned(10), { options })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it("append - a session's constraints apply to the completed upload", async () => {
    const test = createTestService()
    const bytes = utf8('plain text')
    const constraints = { fixed: { network: 'public', keyvalues: { via: 'signed' } } } as const
    const upload = await session(test, bytes, { options: { network: 'private' }, constraints })
    const { result } = await upload.append(0, bytes)
    expect(result?.file).toMatchObject({ network: 'public', keyvalues: { via: 'signed' } })
  })
})
