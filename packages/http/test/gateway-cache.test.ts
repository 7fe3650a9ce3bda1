import { createMemoryBlobStore } from '@pinfold/adapter-memory'
import { createPostgresChangeFeed, createPostgresRecordStore, fromPgPool, migrate } from '@pinfold/adapter-postgres'
import type { BlobStore } from '@pinfold/core'
import { requestOnHost } from '@pinfold/testing/gateway'
import { freshSchema } from '@pinfold/testing/storage'
import { type ApiTarget, startTestApi, type TestApi } from '@pinfold/testing/test-api'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

/**
 * The gateway's read cache (core `gateway/read-cache.ts`) answers repeated requests from memory;
 * each fact it keeps has a test here that serves the content (so the cache holds it), changes the
 * fact, and checks the very next request answers the new truth. On the storage
 * `PINFOLD_TEST_STORAGE` names, and with two instances on one PostgreSQL server.
 */

const GATEWAY_DOMAIN = 'gw.pinfold.test'
const HOST = `acme.${GATEWAY_DOMAIN}`

async function upload(server: ApiTarget, text: string, fields: Record<string, string> = {}, org?: string) {
  const body = new FormData()
  body.append('file', new Blob([text]), 'file.txt')
  for (const [key, value] of Object.entries({ network: 'public', ...fields })) body.append(key, value)
  const res = await server.api('/v3/files', { method: 'POST', body, org })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: { id: string; cid: string } }).data
}

/** The body of `/ipfs/{cid}` (twice, so the second answer comes from the cache), or the status when not 200. */
async function servedTwice(server: ApiTarget, cid: string): Promise<string> {
  let last = ''
  for (let i = 0; i < 2; i++) {
    const res = await server.fetch(`${server.url}/ipfs/${cid}`)
    last = res.status === 200 ? await res.text() : String(res.status)
  }
  return last
}

describe('gateway read cache: every change is served at once', () => {
  let server: TestApi
  const now = { at: new Date('2026-11-28T12:00:00Z') }
  beforeAll(async () => {
    server = await startTestApi({ clock: { now: () => now.at }, gatewayDomain: GATEWAY_DOMAIN })
    const claim = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name: 'acme' }) })
    expect(claim.status).toBe(201)
  })
  afterAll(() => server.close())

  it('delete - a deleted file is not served by the next request, raw blocks included', async () => {
    const file = await upload(server, 'delete me')
    expect(await servedTwice(server, file.cid)).toBe('delete me')
    expect((await server.fetch(`${server.url}/ipfs/${file.cid}?format=raw`)).status).toBe(200)
    expect((await server.api(`/v3/files/public/${file.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await server.fetch(`${server.url}/ipfs/${file.cid}`)).status).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${file.cid}?format=raw`)).status).toBe(404)
  })

  it('expire - past its expires_at a cached file is not served; an expiry set later applies too', async () => {
    const seconds = (ms: number) => String(Math.floor(ms / 1000))
    const file = await upload(server, 'short-lived', { expires_at: seconds(now.at.getTime() + 60_000) })
    expect(await servedTwice(server, file.cid)).toBe('short-lived')
    now.at = new Date(now.at.getTime() + 61_000)
    expect((await server.fetch(`${server.url}/ipfs/${file.cid}`)).status).toBe(404)

    // served (and kept) while it had no expiry, then given one: once that passes, not served
    const later = await upload(server, 'expired by an update')
    expect(await servedTwice(server, later.cid)).toBe('expired by an update')
    const update = await server.api(`/v3/files/public/${later.id}`, {
      method: 'PUT',
      body: JSON.stringify({ expires_at: Number(seconds(now.at.getTime() + 30_000)) }),
    })
    expect(update.status).toBe(200)
    expect(await servedTwice(server, later.cid)).toBe('expired by an update')
    now.at = new Date(now.at.getTime() + 31_000)
    expect((await server.fetch(`${server.url}/ipfs/${later.cid}`)).status).toBe(404)
  })

  it('make private - content left only in a private file is not served publicly by the next request', async () => {
    const pub = await upload(server, 'public, then private')
    // the same bytes as a private file too: the content stays stored, only its public holder goes
    const priv = await upload(server, 'public, then private', { network: 'private' })
    expect(priv.cid).toBe(pub.cid)
    expect(await servedTwice(server, pub.cid)).toBe('public, then private')
    expect((await server.api(`/v3/files/public/${pub.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await server.fetch(`${server.url}/ipfs/${pub.cid}`)).status).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${pub.cid}?format=raw`)).status).toBe(404)
  })

  it("swap - a tenant gateway serves a swap's target from the next request on, and the original once it is removed", async () => {
    const original = await upload(server, 'original')
    const target = await upload(server, 'swapped in')
    const onHost = async () => (await requestOnHost(server, HOST, `/ipfs/${original.cid}`)).body
    expect(await onHost()).toBe('original')
    expect(await onHost()).toBe('original')
    const put = await server.api(`/v3/files/public/swap/${original.cid}`, {
      method: 'PUT',
      body: JSON.stringify({ swap_cid: target.cid }),
    })
    expect(put.status).toBe(200)
    expect(await onHost()).toBe('swapped in')
    expect(await onHost()).toBe('swapped in')
    expect((await server.api(`/v3/files/public/swap/${original.cid}`, { method: 'DELETE' })).status).toBe(200)
    expect(await onHost()).toBe('original')
    // the target deleted while swapped to: the original again
    await server.api(`/v3/files/public/swap/${original.cid}`, {
      method: 'PUT',
      body: JSON.stringify({ swap_cid: target.cid }),
    })
    expect(await onHost()).toBe('swapped in')
    expect((await server.api(`/v3/files/public/${target.id}`, { method: 'DELETE' })).status).toBe(200)
    expect(await onHost()).toBe('original')
  })
})

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL

describe.skipIf(!TEST_DATABASE_URL)('gateway read cache: two instances on one PostgreSQL server', () => {
  const pools: pg.Pool[] = []
  const closers: (() => Promise<void>)[] = []
  let a: TestApi
  let b: TestApi
  beforeAll(async () => {
    const url = await freshSchema(TEST_DATABASE_URL!)
    const pool = () => {
      const opened = new pg.Pool({ connectionString: url, max: 4 })
      pools.push(opened)
      return opened
    }
    await migrate(fromPgPool(pool()))
    const blobs: BlobStore = createMemoryBlobStore() // one blob store, as instances share one bucket
    const instance = async () => {
      const own = pool()
      const changes = await createPostgresChangeFeed({
        client: own,
        connect: async () => {
          const client = new pg.Client({ connectionString: url })
          await client.connect()
          return client
        },
      })
      closers.push(() => changes.close())
      // a long bound, so only the notification can explain B seeing the delete
      const records = createPostgresRecordStore({ client: fromPgPool(own) })
      return startTestApi({ records, blobs, gatewayCache: { changes, ttlMs: 3_600_000 } })
    }
    a = await instance()
    b = await instance()
  })
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()])
    for (const close of closers) await close()
    await Promise.all(pools.map((opened) => opened.end()))
  })

  it("delete - instance B stops serving what instance A deleted, though B's cache held it", async () => {
    const file = await upload(a, 'on both instances')
    expect(await servedTwice(b, file.cid)).toBe('on both instances')
    expect((await a.api(`/v3/files/public/${file.id}`, { method: 'DELETE' })).status).toBe(200)
    // NOTIFY reaches B's listening connection asynchronously: within milliseconds, not before A answers
    await vi.waitFor(async () => expect((await b.fetch(`${b.url}/ipfs/${file.cid}`)).status).toBe(404), {
      timeout: 2000,
      interval: 20,
    })
  })
})
