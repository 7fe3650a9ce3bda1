import { createMemoryBlobStore } from '@pinfold/adapter-memory'
import { createPostgresChangeFeed, createPostgresRecordStore, fromPgPool, migrate } from '@pinfold/adapter-postgres'
import { type BlobStore, mintOperatorToken } from '@pinfold/core'
import type { GatewayServed, HttpObserver } from '@pinfold/http'
import { type BridgeAnswer, listenOverNode, type NodeBridge } from '@pinfold/testing/node-bridge'
import { freshSchema } from '@pinfold/testing/storage'
import { type ApiTarget, startTestApi, TEST_SECRET, type TestApi } from '@pinfold/testing/test-api'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

/**
 * The gateway's answer cache (`http/src/gateway/kept-answers.ts`): public gateway answers kept
 * whole and answered by the node bridge without running the handler. Over a real node:http
 * bridge, as `pinfold serve` runs it: a kept answer equals the full path's (status, headers but
 * the request id and date, body), is counted as the full path counts it, and every change that
 * could alter it (delete, expire, make private, a deny rule, a hidden tenant, a swap on a tenant's
 * gateway) is served from the very next request. On the storage `PINFOLD_TEST_STORAGE` names,
 * and with two instances on one PostgreSQL server.
 */

const GATEWAY_DOMAIN = 'gw.pinfold.test'
const TENANT_HOST = `acme.${GATEWAY_DOMAIN}`

async function upload(server: ApiTarget, text: string, fields: Record<string, string> = {}, org?: string) {
  const body = new FormData()
  body.append('file', new Blob([text]), 'file.txt')
  for (const [key, value] of Object.entries({ network: 'public', ...fields })) body.append(key, value)
  const res = await server.api('/v3/files', { method: 'POST', body, org })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: { id: string; cid: string } }).data
}

/** An answer without what differs per request by design (its id, its date). */
function comparable({ status, headers, body }: BridgeAnswer) {
  const { 'x-request-id': _id, date: _date, ...rest } = headers
  return { status, headers: rest, body: body.toString('latin1') }
}

/**
 * `path` asked four times: the first answer is kept (or, the first after a change to the hidden
 * tenants, read again, the second), and the third and fourth come from the cache.
 */
async function keptTwice(bridge: NodeBridge, path: string, headers: Record<string, string> = {}) {
  await bridge.request(path, { headers })
  const first = await bridge.request(path, { headers })
  const before = bridge.handled
  const second = await bridge.request(path, { headers })
  const third = await bridge.request(path, { headers })
  expect(bridge.handled, `${path} answered from the cache`).toBe(before)
  expect(comparable(second)).toEqual(comparable(first))
  expect(comparable(third)).toEqual(comparable(first))
  return second
}

describe('gateway answer cache: answers and counts as the full path does', () => {
  let server: TestApi
  let bridge: NodeBridge
  let full: NodeBridge
  const served: GatewayServed[] = []
  const answered: number[] = []
  const observer: HttpObserver = {
    answered: ({ status }) => answered.push(status),
    gatewayStarted: () => (done) => served.push(done),
    uploaded: () => {},
  }
  beforeAll(async () => {
    // a clock of the test's: the hidden tenants are read again only when it moves
    const clock = { now: () => new Date('2026-11-28T12:00:00Z') }
    server = await startTestApi({ clock, observer, rateLimit: { perIp: { limit: 1000, windowMs: 60_000 } } })
    bridge = await listenOverNode(server.handler)
    full = await listenOverNode(server.handler, { kept: false })
  })
  afterAll(async () => {
    await Promise.all([bridge?.close(), full?.close()])
    await server?.close()
  })

  it('table - each kept answer equals the full path answer: HEAD, If-None-Match, Accept, Host, Origin, a path', async () => {
    const file = await upload(server, 'the same bytes for everyone')
    const folder = new FormData()
    folder.append('file', new Blob(['a page']), 'site/docs/page.txt')
    folder.append('file', new Blob(['<h1>home</h1>']), 'site/index.html')
    folder.append('network', 'public')
    const site = await server.api('/v3/files', { method: 'POST', body: folder })
    const folderCid = ((await site.json()) as { data: { cid: string } }).data.cid
    const etag = `"${file.cid}"`
    const table: [string, string, Record<string, string>, number][] = [
      ['GET', `/ipfs/${file.cid}`, {}, 200],
      ['HEAD', `/ipfs/${file.cid}`, {}, 200],
      ['GET', `/ipfs/${file.cid}`, { 'if-none-match': etag }, 304],
      ['GET', `/ipfs/${file.cid}`, { accept: 'application/vnd.ipld.raw' }, 200],
      ['GET', `/ipfs/${file.cid}?format=raw`, {}, 200],
      ['GET', `/ipfs/${file.cid}?format=car`, {}, 200],
      ['GET', `/ipfs/${file.cid}`, { accept: 'text/html', 'user-agent': 'browser' }, 200],
      ['GET', `/ipfs/${file.cid}`, { host: 'another.example' }, 200],
      ['GET', `/ipfs/${file.cid}`, { origin: 'https://app.example' }, 200],
      ['GET', `/ipfs/${file.cid}?filename=a.txt&download=true`, {}, 200],
      ['GET', `/ipfs/${folderCid}/docs/page.txt`, {}, 200],
      ['GET', `/ipfs/${folderCid}/`, {}, 200],
    ]
    for (const [method, path, headers, status] of table) {
      const reference = await full.request(path, { method, headers })
      expect(reference.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(status)
      await bridge.request(path, { method, headers })
      await bridge.request(path, { method, headers })
      const before = bridge.handled
      const kept = await bridge.request(path, { method, headers })
      expect(bridge.handled, `${method} ${path} ${JSON.stringify(headers)} kept`).toBe(before)
      expect(comparable(kept)).toEqual(comparable(reference))
    }
    // each variant is an answer of its own: the raw block is not the file, the 304 has no body
    const plain = await bridge.request(`/ipfs/${file.cid}`)
    const raw = await bridge.request(`/ipfs/${file.cid}`, { headers: { accept: 'application/vnd.ipld.raw' } })
    expect(plain.headers['content-type']).not.toBe(raw.headers['content-type'])
    expect(plain.body.toString()).toBe('the same bytes for everyone')
  })

  it('request id - a kept answer echoes the caller id, else gives a fresh one each time', async () => {
    const file = await upload(server, 'ids')
    await keptTwice(bridge, `/ipfs/${file.cid}`)
    expect(
      (await bridge.request(`/ipfs/${file.cid}`, { headers: { 'x-request-id': 'trace-42' } })).headers,
    ).toMatchObject({ 'x-request-id': 'trace-42' })
    const a = await bridge.request(`/ipfs/${file.cid}`)
    const b = await bridge.request(`/ipfs/${file.cid}`)
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id'])
  })

  it('range and other headers - never answered from the cache', async () => {
    const file = await upload(server, '0123456789')
    await keptTwice(bridge, `/ipfs/${file.cid}`)
    const unusual: Record<string, string>[] = [
      { range: 'bytes=2-4' },
      { authorization: 'Bearer x' },
      { 'cache-control': 'only-if-cached' },
      { cookie: 'a=b' },
    ]
    for (const headers of unusual) {
      const before = bridge.handled
      const answer = await bridge.request(`/ipfs/${file.cid}`, { headers })
      expect(bridge.handled, JSON.stringify(headers)).toBe(before + 1)
      if ('range' in headers) {
        expect(answer.status).toBe(206)
        expect(answer.body.toString()).toBe('234')
      }
    }
  })

  it('metrics - a kept answer is counted as the full path counts it', async () => {
    const file = await upload(server, 'counted bytes')
    await bridge.request(`/ipfs/${file.cid}`)
    served.length = 0
    answered.length = 0
    await keptTwice(bridge, `/ipfs/${file.cid}`)
    await bridge.request(`/ipfs/${file.cid}`, { method: 'HEAD' })
    await bridge.request(`/ipfs/${file.cid}`, { method: 'HEAD' })
    // four GETs (two from the cache), two HEADs (the second from the cache)
    expect(answered).toEqual([200, 200, 200, 200, 200, 200])
    const get = { format: 'unixfs', status: 200, bytes: 13 }
    const head = { format: 'unixfs', status: 200, bytes: 0 }
    expect(served.map(({ format, status, bytes }) => ({ format, status, bytes }))).toEqual([
      get,
      get,
      get,
      get,
      head,
      head,
    ])
    expect(served[0]!.firstByteSeconds).toBeGreaterThanOrEqual(0)
  })

  it('rate limit - kept answers draw on the per-address budget', async () => {
    // the budget is no storage's: memory stores whatever the run's storage, so this costs no second database
    const limited = await startTestApi({ storage: 'memory', rateLimit: { perIp: { limit: 3, windowMs: 60_000 } } })
    const limitedBridge = await listenOverNode(limited.handler)
    try {
      const file = await upload(limited, 'limited')
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) statuses.push((await limitedBridge.request(`/ipfs/${file.cid}`)).status)
      // the upload went through `api` (no address), so the budget is the gateway's alone
      expect(statuses).toEqual([200, 200, 200, 429, 429])
    } finally {
      await limitedBridge.close()
      await limited.close()
    }
  })
})

describe('gateway answer cache: every change is served at once', () => {
  let server: TestApi
  let bridge: NodeBridge
  let operator: string
  const now = { at: new Date('2026-11-28T12:00:00Z') }
  beforeAll(async () => {
    server = await startTestApi({ clock: { now: () => now.at }, gatewayDomain: GATEWAY_DOMAIN })
    bridge = await listenOverNode(server.handler)
    operator = await mintOperatorToken(TEST_SECRET, { sub: 'ops', expiresIn: '1h' })
    const claim = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name: 'acme' }) })
    expect(claim.status).toBe(201)
  })
  afterAll(async () => {
    await bridge?.close()
    await server?.close()
  })
  const status = async (path: string, headers: Record<string, string> = {}) =>
    (await bridge.request(path, { headers })).status

  it('delete - a deleted file is not served by the next request, raw blocks and HEAD included', async () => {
    const file = await upload(server, 'delete me')
    await keptTwice(bridge, `/ipfs/${file.cid}`)
    await keptTwice(bridge, `/ipfs/${file.cid}?format=raw`)
    await keptTwice(bridge, `/ipfs/${file.cid}`, { 'if-none-match': `"${file.cid}"` })
    expect((await server.api(`/v3/files/public/${file.id}`, { method: 'DELETE' })).status).toBe(200)
    expect(await status(`/ipfs/${file.cid}`)).toBe(404)
    expect(await status(`/ipfs/${file.cid}?format=raw`)).toBe(404)
    expect(await status(`/ipfs/${file.cid}`, { 'if-none-match': `"${file.cid}"` })).toBe(404)
  })

  it('expire - past its expires_at a kept answer is not served; an expiry set later applies too', async () => {
    const seconds = (ms: number) => String(Math.floor(ms / 1000))
    const file = await upload(server, 'short-lived', { expires_at: seconds(now.at.getTime() + 60_000) })
    await keptTwice(bridge, `/ipfs/${file.cid}`)
    now.at = new Date(now.at.getTime() + 61_000)
    expect(await status(`/ipfs/${file.cid}`)).toBe(404)

    const later = await upload(server, 'expired by an update')
    await keptTwice(bridge, `/ipfs/${later.cid}`)
    const update = await server.api(`/v3/files/public/${later.id}`, {
      method: 'PUT',
      body: JSON.stringify({ expires_at: Number(seconds(now.at.getTime() + 30_000)) }),
    })
    expect(update.status).toBe(200)
    await keptTwice(bridge, `/ipfs/${later.cid}`)
    now.at = new Date(now.at.getTime() + 31_000)
    expect(await status(`/ipfs/${later.cid}`)).toBe(404)
  })

  it('make private - content left only in a private file is not served publicly by the next request', async () => {
    const pub = await upload(server, 'public, then private')
    const priv = await upload(server, 'public, then private', { network: 'private' })
    expect(priv.cid).toBe(pub.cid)
    await keptTwice(bridge, `/ipfs/${pub.cid}`)
    expect((await server.api(`/v3/files/public/${pub.id}`, { method: 'DELETE' })).status).toBe(200)
    expect(await status(`/ipfs/${pub.cid}`)).toBe(404)
  })

  it('deny rule - a rule added is applied from the next request', async () => {
    const file = await upload(server, 'soon blocked')
    await keptTwice(bridge, `/ipfs/${file.cid}`)
    await server.service.denylist.addRule(`/ipfs/${file.cid}`)
    expect(await status(`/ipfs/${file.cid}`)).toBe(410)
  })

  it('hidden tenant - a suspension that hides content is applied from the next request', async () => {
    const file = await upload(server, 'globex only', {}, 'globex')
    await keptTwice(bridge, `/ipfs/${file.cid}`)
    const suspend = await server.api('/admin/v1/tenants/globex/suspend', {
      method: 'POST',
      body: JSON.stringify({ reason: 'abuse report', hide_content: true }),
      auth: operator,
    })
    expect(suspend.status).toBe(200)
    expect(await status(`/ipfs/${file.cid}`)).toBe(404)
  })

  it("swap - a tenant's gateway serves a swap's target from the next request on", async () => {
    const original = await upload(server, 'original')
    const target = await upload(server, 'swapped in')
    const onHost = async () => (await bridge.request(`/ipfs/${original.cid}`, { headers: { host: TENANT_HOST } })).body
    expect((await onHost()).toString()).toBe('original')
    expect((await onHost()).toString()).toBe('original')
    const put = await server.api(`/v3/files/public/swap/${original.cid}`, {
      method: 'PUT',
      body: JSON.stringify({ swap_cid: target.cid }),
    })
    expect(put.status).toBe(200)
    expect((await onHost()).toString()).toBe('swapped in')
    expect((await server.api(`/v3/files/public/swap/${original.cid}`, { method: 'DELETE' })).status).toBe(200)
    expect((await onHost()).toString()).toBe('original')
    // the public gateway never swaps: its kept answer is the CID's own bytes throughout
    expect((await keptTwice(bridge, `/ipfs/${original.cid}`)).body.toString()).toBe('original')
  })
})

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL

describe.skipIf(!TEST_DATABASE_URL)('gateway answer cache: two instances on one PostgreSQL server', () => {
  const pools: pg.Pool[] = []
  const closers: (() => Promise<void>)[] = []
  let a: TestApi
  let b: TestApi
  let bridgeB: NodeBridge
  beforeAll(async () => {
    const url = await freshSchema(TEST_DATABASE_URL!)
    const pool = () => {
      const opened = new pg.Pool({ connectionString: url, max: 4 })
      pools.push(opened)
      return opened
    }
    await migrate(fromPgPool(pool()))
    const blobs: BlobStore = createMemoryBlobStore()
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
      // long bounds, so only the notification can explain B seeing the change
      const records = createPostgresRecordStore({ client: fromPgPool(own) })
      const clock = { now: () => new Date('2026-11-28T12:00:00Z') }
      return startTestApi({ clock, records, blobs, gatewayCache: { changes, ttlMs: 3_600_000 } })
    }
    a = await instance()
    b = await instance()
    bridgeB = await listenOverNode(b.handler)
  })
  afterAll(async () => {
    await bridgeB?.close()
    await Promise.all([a?.close(), b?.close()])
    for (const close of closers) await close()
    await Promise.all(pools.map((opened) => opened.end()))
  })

  it("delete and deny - instance B stops answering what A deleted or blocked, though B's cache held it", async () => {
    const file = await upload(a, 'on both instances')
    await keptTwice(bridgeB, `/ipfs/${file.cid}`)
    expect((await a.api(`/v3/files/public/${file.id}`, { method: 'DELETE' })).status).toBe(200)
    await vi.waitFor(async () => expect((await bridgeB.request(`/ipfs/${file.cid}`)).status).toBe(404), {
      timeout: 2000,
      interval: 20,
    })
    const other = await upload(a, 'blocked on both')
    await keptTwice(bridgeB, `/ipfs/${other.cid}`)
    await a.service.denylist.addRule(`/ipfs/${other.cid}`)
    await vi.waitFor(async () => expect((await bridgeB.request(`/ipfs/${other.cid}`)).status).toBe(410), {
      timeout: 2000,
      interval: 20,
    })
  })
})
