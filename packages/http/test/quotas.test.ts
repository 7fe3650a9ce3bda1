import type { TenantLimitOverrides } from '@pinfold/core'
import { form, startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { b64, cidOf, createSdkStyle, patchAt } from '@pinfold/testing/tus'
import { carBytes } from '@pinfold/testing/uploads'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The quota matrix: every ingest path refused at a tenant's limits with the answer its API gives
 * (403 `{"error"}` on Pinata's routes, 413 past the per-file limit, 409 INSUFFICIENT_FUNDS on the
 * Pinning Service API, 429 past the pin queue or the request rate), leaving nothing stored: no file,
 * no blob, no upload session, figures unchanged. Each case is a tenant of its own, limits set
 * through the service as the operator's admin API does.
 */

const bytesOf = (size: number, seed: number) => new Uint8Array(size).map((_, i) => (i * 31 + seed) % 251)

interface Use {
  files: number
  logical_bytes: number
  sole_bytes: number
  shared_bytes: number
  contents: number
}

describe('quotas on every ingest path', () => {
  let server: TestApi
  let tenants = 0
  beforeAll(async () => {
    server = await startTestApi({ embedder: undefined })
  })
  afterAll(() => server.close())

  /** A fresh tenant with these overrides. */
  async function tenant(limits: TenantLimitOverrides): Promise<string> {
    const org = `quota-${++tenants}-${Date.now()}`
    await server.service.quotas.setTenantLimits(org, limits)
    return org
  }

  async function use(org: string): Promise<{ limits: Record<string, number | null>; usage: Use }> {
    const res = await server.api('/v3/data/limits', { org })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { limits: Record<string, number | null>; usage: Use } }).data
  }

  const multipart = (org: string, size: number, seed: number, fields: Record<string, string> = {}) =>
    server.api('/v3/files', { method: 'POST', body: form(fields, { bytes: bytesOf(size, seed), name: 'f.bin' }), org })

  async function signedUrl(org: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000)
    const signed = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ date: now, expires: 600, max_file_size: 1_000_000 }),
      org,
    })
    expect(signed.status).toBe(200)
    return ((await signed.json()) as { data: string }).data
  }

  async function signedUpload(org: string, size: number, seed: number) {
    const body = form({}, { bytes: bytesOf(size, seed), name: 's.bin' })
    return server.fetch(await signedUrl(org), { method: 'POST', body })
  }

  async function carOf(size: number, seed: number): Promise<Uint8Array> {
    const bytes = bytesOf(size, seed)
    const cid = CID.createV1(raw.code, await sha256.digest(bytes))
    return carBytes([cid], [{ cid, bytes }])
  }

  async function tusCreate(org: string, length: number) {
    return createSdkStyle(server, length, `filename ${b64('t.bin')}`, '', await server.token({ org }))
  }

  const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) })

  /** A public file of another tenant: pinning its CID reuses its content (no fetch). */
  async function heldElsewhere(size: number, seed: number): Promise<string> {
    const { status, body } = await upload(
      server,
      { bytes: bytesOf(size, seed), name: 'held.bin' },
      { network: 'public' },
      await server.token({ org: `holder-${seed}` }),
    )
    expect(status).toBe(200)
    return String(body.data.cid)
  }

  interface Case {
    path: string
    limits: TenantLimitOverrides
    /** Use taken before the refused request. */
    before?: (org: string) => Promise<void>
    /** The seed of another tenant's public file whose CID the attempt pins (uploaded beforehand). */
    held?: number
    attempt: (org: string, cid: string) => Promise<Response>
    status: number
    /** Pinning Service API failures are `{error: {reason, details}}`. */
    reason?: string
  }

  const small = async (org: string) => {
    expect((await multipart(org, 10, 1)).status).toBe(200)
  }

  const cases: Case[] = [
    {
      path: 'multipart, storage',
      limits: { storageBytes: 100 },
      attempt: (org) => multipart(org, 101, 2),
      status: 403,
    },
    {
      path: 'multipart, file count',
      limits: { files: 1 },
      before: small,
      attempt: (org) => multipart(org, 5, 3),
      status: 403,
    },
    {
      path: 'multipart, largest file',
      limits: { fileBytes: 50 },
      attempt: (org) => multipart(org, 51, 4),
      status: 413,
    },
    {
      path: 'multipart, storage filled by earlier uploads',
      limits: { storageBytes: 60 },
      before: async (org) => {
        expect((await multipart(org, 60, 5)).status).toBe(200)
      },
      attempt: (org) => multipart(org, 1, 6),
      status: 403,
    },
    {
      path: 'CAR upload',
      limits: { storageBytes: 100 },
      attempt: async (org) =>
        server.api('/v3/files', {
          method: 'POST',
          body: form(
            { network: 'public', car: 'true' },
            { bytes: await carOf(300, 7), name: 'u.car', type: 'application/vnd.ipld.car' },
          ),
          org,
        }),
      status: 403,
    },
    {
      path: 'signed upload URL',
      limits: { storageBytes: 100 },
      attempt: (org) => signedUpload(org, 200, 8),
      status: 403,
    },
    {
      path: 'legacy pinFileToIPFS',
      limits: { storageBytes: 100 },
      attempt: (org) =>
        server.api('/pinning/pinFileToIPFS', {
          method: 'POST',
          body: form({}, { bytes: bytesOf(200, 9), name: 'l.bin' }),
          org,
        }),
      status: 403,
    },
    {
      path: 'legacy pinJSONToIPFS',
      limits: { files: 1 },
      before: small,
      attempt: (org) => server.api('/pinning/pinJSONToIPFS', { ...json({ pinataContent: { a: 1 } }), org }),
      status: 403,
    },
    {
      path: 'tus through a signed URL',
      limits: { storageBytes: 100 },
      attempt: async (org) =>
        server.fetch(await signedUrl(org), {
          method: 'POST',
          headers: { 'Upload-Length': '101', 'Tus-Resumable': '1.0.0' },
        }),
      status: 403,
    },
    {
      path: 'tus, Upload-Length at creation',
      limits: { storageBytes: 100 },
      attempt: (org) => tusCreate(org, 101),
      status: 403,
    },
    {
      path: 'tus, file count at creation',
      limits: { files: 1 },
      before: small,
      attempt: (org) => tusCreate(org, 5),
      status: 403,
    },
    {
      path: 'tus, largest file at creation',
      limits: { fileBytes: 100 },
      attempt: (org) => tusCreate(org, 101),
      status: 413,
    },
    {
      path: 'pin by CID, file count',
      limits: { files: 1 },
      before: small,
      held: 10,
      attempt: (org, cid) => server.api('/v3/files/public/pin_by_cid', { ...json({ cid }), org }),
      status: 403,
    },
    {
      path: 'legacy pinByHash, storage full',
      limits: { storageBytes: 10 },
      before: small,
      held: 11,
      attempt: (org, cid) => server.api('/pinning/pinByHash', { ...json({ hashToPin: cid }), org }),
      status: 403,
    },
    {
      path: 'Pinning Service API, file count',
      limits: { files: 1 },
      before: small,
      held: 12,
      attempt: (org, cid) => server.api('/psa/pins', { ...json({ cid }), org }),
      status: 409,
      reason: 'INSUFFICIENT_FUNDS',
    },
    {
      path: 'Pinning Service API, replace with the files full',
      limits: { files: 1 },
      before: async (org) => {
        const queued = await server.api('/psa/pins', { ...json({ cid: await heldElsewhere(20, 16) }), org })
        expect(queued.status).toBe(202)
        lastFileId = ((await queued.json()) as { requestid: string }).requestid
        await small(org)
      },
      held: 17,
      attempt: (org, cid) => server.api(`/psa/pins/${lastFileId}`, { ...json({ cid }), org }),
      status: 409,
      reason: 'INSUFFICIENT_FUNDS',
    },
    {
      path: 'Pinning Service API, pin queue',
      limits: { openPinRequests: 1 },
      before: async (org) => {
        const res = await server.api('/psa/pins', { ...json({ cid: await heldElsewhere(20, 13) }), org })
        expect(res.status).toBe(202)
      },
      held: 14,
      attempt: (org, cid) => server.api('/psa/pins', { ...json({ cid }), org }),
      status: 429,
      reason: 'RATE_LIMITED',
    },
    {
      path: 'pin by CID, pin queue',
      limits: { openPinRequests: 0 },
      held: 15,
      attempt: (org, cid) => server.api('/v3/files/public/pin_by_cid', { ...json({ cid }), org }),
      status: 429,
    },
    {
      path: 'vectorize',
      limits: { vectorizedFiles: 0 },
      before: async (org) => {
        const group = await server.api('/v3/groups/private', { ...json({ name: 'g' }), org })
        const groupId = ((await group.json()) as { data: { id: string } }).data.id
        const res = await server.api('/v3/files', {
          method: 'POST',
          body: form({ network: 'private', group_id: groupId }, { bytes: 'some words to embed', name: 'v.txt' }),
          org,
        })
        expect(res.status).toBe(200)
        lastFileId = ((await res.json()) as { data: { id: string } }).data.id
      },
      attempt: (org) => server.api(`/v3/vectorize/files/${lastFileId}`, { method: 'POST', org }),
      status: 403,
    },
  ]
  let lastFileId = ''

  it.each(cases)('$path: refused with $status before anything is stored', async (c) => {
    const org = await tenant(c.limits)
    await c.before?.(org)
    const cid = c.held === undefined ? '' : await heldElsewhere(20, c.held)
    const used = (await use(org)).usage
    const blobs = server.blobCount()
    const res = await c.attempt(org, cid)
    const body = (await res.json()) as { error: string | { reason: string; details: string } }
    expect({ status: res.status, body }).toMatchObject({ status: c.status })
    if (c.reason) expect(body.error).toMatchObject({ reason: c.reason, details: expect.any(String) })
    else if (c.status === 403)
      expect(body.error).toMatch(/limit reached/) // never a scope or signature refusal
    else expect(body.error).toEqual(expect.any(String))
    expect((await use(org)).usage).toEqual(used)
    expect(server.blobCount()).toBe(blobs)
  })

  it('tus: a completion that no longer fits is refused, and its session and bytes are gone', async () => {
    const org = await tenant({ storageBytes: 100 })
    const bytes = bytesOf(80, 20)
    const created = await tusCreate(org, bytes.length)
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!
    expect((await multipart(org, 50, 21)).status).toBe(200) // the room left shrinks meanwhile
    const used = (await use(org)).usage
    const done = await patchAt(server, location, 0, bytes)
    expect(done.status).toBe(403)
    expect(((await done.json()) as { error: string }).error).toMatch(/storage limit/)
    const head = await server.fetch(location, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })
    expect(head.status).toBe(404)
    expect((await use(org)).usage).toEqual(used)
    const listed = await server.api(`/v3/files/private?cid=${await cidOf(bytes)}`, { org })
    expect(((await listed.json()) as { data: { files: unknown[] } }).data.files).toEqual([])
  })

  it('pin by CID: a DAG larger than the storage left fails the request (over_max_size) and stores no file', async () => {
    const org = await tenant({ storageBytes: 100 })
    const cid = await heldElsewhere(300, 22)
    const res = await server.api('/v3/files/public/pin_by_cid', { ...json({ cid }), org })
    expect(res.status).toBe(200)
    const id = ((await res.json()) as { data: { id: string } }).data.id
    while (await server.service.pins.runNext()) {}
    const jobs = await server.api(`/v3/files/public/pin_by_cid?cid=${cid}`, { org })
    const job = ((await jobs.json()) as { data: { jobs: { id: string; status: string; reason: string }[] } }).data.jobs
    expect(job).toMatchObject([{ id, status: 'over_max_size', reason: expect.stringMatching(/storage limit/) }])
    expect((await use(org)).usage).toMatchObject({ files: 0, logical_bytes: 0 })
  })

  it('two uploads racing at the limit: exactly one lands', async () => {
    const org = await tenant({ storageBytes: 100 })
    const results = await Promise.all([multipart(org, 60, 23), multipart(org, 60, 24), multipart(org, 60, 25)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403])
    expect((await use(org)).usage).toMatchObject({ files: 1, logical_bytes: 60 })
  })

  it('an upload that fits exactly lands; the tenant reads its limits and use', async () => {
    const org = await tenant({ storageBytes: 100, files: 5 })
    expect((await multipart(org, 100, 26)).status).toBe(200)
    expect(await use(org)).toEqual({
      limits: {
        storage_bytes: 100,
        files: 5,
        file_bytes: null,
        open_pin_requests: null,
        requests_per_minute: null,
        vectorized_files: null,
      },
      usage: {
        files: 1,
        logical_bytes: 100,
        contents: 1,
        sole_bytes: 100,
        shared_bytes: 0,
        open_pin_requests: 0,
        vectorized_files: 0,
      },
    })
  })

  it('requests per minute: past the budget a 429 with Retry-After', async () => {
    const org = await tenant({ requestsPerMinute: 2 })
    expect((await server.api('/v3/files/public', { org })).status).toBe(200)
    expect((await server.api('/v3/files/public', { org })).status).toBe(200)
    const refused = await server.api('/v3/files/public', { org })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await server.api('/v3/files/public', { org: 'another-tenant' })).status).toBe(200)
  })

  it('usage: Pinata’s totals are the kept figures; a content shared across tenants is shared for each', async () => {
    const [a, b] = [await tenant({}), await tenant({})]
    const bytes = bytesOf(123, 27)
    for (const org of [a, b, a]) {
      const res = await server.api('/v3/files', { method: 'POST', body: form({}, { bytes, name: 'd.bin' }), org })
      expect(res.status).toBe(200)
    }
    const total = await server.api('/v3/data/userPinnedDataTotal', { org: a })
    expect(await total.json()).toEqual({ pin_count: 2, pin_size_total: 246, pin_size_with_replications_total: 246 })
    expect((await use(a)).usage).toMatchObject({
      files: 2,
      logical_bytes: 246,
      contents: 1,
      sole_bytes: 0,
      shared_bytes: 123,
    })
    expect((await use(b)).usage).toMatchObject({
      files: 1,
      logical_bytes: 123,
      contents: 1,
      sole_bytes: 0,
      shared_bytes: 123,
    })
  })
})
