import type { BlockFetcher } from '@pinfold/core'
import { gatewayProviderId, PinfoldError } from '@pinfold/core'
import { createPinningServiceChecker } from '@pinfold/testing/pinning-service'
import { startTestApi, TEST_ORIGIN, type TestApi, upload } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failureResponse } from '../src/resources/psa/wire.js'

/**
 * The IPFS Pinning Service API over the in-process API, at `/psa/pins` and at `/pins`; every answer
 * is checked against the spec's own OpenAPI file. Content lives in a second instance whose trustless
 * gateway the pinning instance fetches blocks from, as pin-by-cid.test.ts does.
 */

interface PinStatus {
  requestid: string
  status: 'queued' | 'pinning' | 'pinned' | 'failed'
  created: string
  pin: { cid: string; name?: string; origins?: string[]; meta?: Record<string, string> }
  delegates: string[]
  info?: Record<string, string>
}
interface PinResults {
  count: number
  results: PinStatus[]
}
interface Failure {
  error: { reason: string; details?: string }
}

const MISSING_CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
const ORIGIN = '/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWGRUVh8ZmaFDsg6UKaRv9bCZNwmtRJ3bmQf3xs2AB4qnE'

describe.each(['/psa', ''])('Pinning Service API at %s/pins', (prefix) => {
  let source: TestApi
  let server: TestApi
  const held: string[] = []
  const check = createPinningServiceChecker()

  beforeAll(async () => {
    source = await startTestApi({ embedder: null })
    for (const text of ['first', 'second', 'third']) {
      const { body } = await upload(
        source,
        { bytes: `psa ${text} ${prefix}`, name: `${text}.txt` },
        { network: 'public' },
      )
      held.push(String(body.data.cid))
    }
    const gateway: BlockFetcher = {
      name: 'source-gateway',
      async getBlock(cid, { signal }) {
        const res = await source.fetch(`${source.url}/ipfs/${cid}?format=raw`, { signal })
        if (!res.ok) throw new PinfoldError('NOT_FOUND', `${res.status} for ${cid}`)
        return new Uint8Array(await res.arrayBuffer())
      },
    }
    server = await startTestApi({ embedder: null, blockFetchers: [gateway], pinning: { maxQueuedPerTenant: 40 } })
  })
  afterAll(async () => {
    await server?.close()
    await source?.close()
  })

  const drain = async () => {
    while (await server.service.pins.runNext()) {}
  }
  const add = async (pin: unknown, init: { org?: string; auth?: string | null } = {}) => {
    const res = await server.api(`${prefix}/pins`, { method: 'POST', body: JSON.stringify(pin), ...init })
    return { status: res.status, body: (await check('POST', '/pins', res)) as PinStatus & Failure }
  }
  const get = async (id: string, init: { org?: string } = {}) => {
    const res = await server.api(`${prefix}/pins/${id}`, init)
    return { status: res.status, body: (await check('GET', '/pins/{requestid}', res)) as PinStatus & Failure }
  }
  const list = async (query = '', init: { org?: string; auth?: string | null } = {}) => {
    const res = await server.api(`${prefix}/pins${query}`, init)
    return { status: res.status, body: (await check('GET', '/pins', res)) as PinResults & Failure }
  }
  const replace = async (id: string, pin: unknown) => {
    const res = await server.api(`${prefix}/pins/${id}`, { method: 'POST', body: JSON.stringify(pin) })
    return { status: res.status, body: (await check('POST', '/pins/{requestid}', res)) as PinStatus & Failure }
  }
  const remove = async (id: string, init: { org?: string } = {}) => {
    const res = await server.api(`${prefix}/pins/${id}`, { method: 'DELETE', ...init })
    return { status: res.status, body: (await check('DELETE', '/pins/{requestid}', res)) as Failure | undefined }
  }
  const v3File = (id: string) => server.api(`/v3/files/public/${id}`)

  it('POST /pins - 202 with a new requestid each time, even for the same CID; the worker pins it into a file of the same id', async () => {
    const first = await add({ cid: held[0], name: 'first.txt', origins: [ORIGIN], meta: { app: 'psa-test' } })
    expect(first.status).toBe(202)
    expect(first.body).toMatchObject({
      status: 'queued',
      pin: { cid: held[0], name: 'first.txt', origins: [ORIGIN], meta: { app: 'psa-test' } },
      info: { status_details: 'waiting for a worker' },
    })
    // no IPFS node in this server: the API host's trustless gateway is the delegate, named as the
    // routing API names it, with a /p2p/ part (Kubo refuses a delegate without one)
    expect(first.body.delegates).toEqual([`/dns/pinfold.test/tcp/80/http/p2p/${gatewayProviderId(TEST_ORIGIN)}`])
    const again = await add({ cid: held[0] })
    expect(again.status).toBe(202)
    expect(again.body.requestid).not.toBe(first.body.requestid)
    expect(again.body.created).not.toBe(first.body.created)
    // without a name, the CID is the name (a file needs one)
    expect(again.body.pin.name).toBe(held[0])
    await drain()
    // the same provider the routing API names for the pinned CID
    const routing = await server.fetch(`${server.url}/routing/v1/providers/${held[0]}`)
    expect(((await routing.json()) as { Providers: { ID: string; Addrs: string[] }[] }).Providers).toEqual([
      expect.objectContaining({ ID: gatewayProviderId(TEST_ORIGIN), Addrs: ['/dns/pinfold.test/tcp/80/http'] }),
    ])
    const pinned = await get(first.body.requestid)
    expect(pinned.status).toBe(200)
    expect(pinned.body).toMatchObject({
      status: 'pinned',
      created: first.body.created,
      info: { dag_size: expect.any(String) },
    })
    expect(pinned.body.info?.status_details).toContain(first.body.requestid)
    // the same pin through v3: a public file with the request's id, the meta as its keyvalues
    const file = await v3File(first.body.requestid)
    expect(file.status).toBe(200)
    const data = (
      (await file.json()) as { data: { cid: string; name: string; keyvalues: Record<string, string>; size: number } }
    ).data
    expect(data).toMatchObject({ cid: held[0], name: 'first.txt', keyvalues: { app: 'psa-test' } })
    expect(pinned.body.info?.dag_size).toBe(String(data.size))
    await remove(again.body.requestid)
  })

  it('statuses come from the pin-by-CID queue: a CID no source has fails with the reason in status_details; v3 lists the same request', async () => {
    const { body } = await add({ cid: MISSING_CID, name: 'nowhere' })
    const queue = await server.api('/v3/files/public/pin_by_cid')
    const jobs = ((await queue.json()) as { data: { jobs: { id: string; status: string }[] } }).data.jobs
    expect(jobs).toContainEqual(expect.objectContaining({ id: body.requestid, status: 'prechecking' }))
    await drain()
    const failed = await get(body.requestid)
    expect(failed.body.status).toBe('failed')
    expect(failed.body.info?.status_details).toMatch(/^not_found: block .* was not found/)
    expect((await remove(body.requestid)).status).toBe(202)
    expect((await get(body.requestid)).status).toBe(404)
  })

  it('GET /pins - with no filter the newest pinned only; count for the filter; every filter; paging by before', async () => {
    const org = `psa-list${prefix.replace('/', '-')}`
    const made: PinStatus[] = []
    for (let i = 0; i < 12; i++) {
      const cid = held[i % 3]
      made.push(
        (await add({ cid, name: `Item-${i}.txt`, meta: { batch: i < 6 ? 'a' : 'b', i: String(i) } }, { org })).body,
      )
    }
    const queued = await add({ cid: MISSING_CID, name: 'item-queued' }, { org })
    await drain()
    const stillQueued = await add({ cid: MISSING_CID, name: 'item-waiting' }, { org })
    const ids = (results: PinStatus[]) => results.map((r) => r.requestid)
    const newest = [...made].reverse()

    const plain = await list('', { org })
    expect(plain.status).toBe(200)
    expect(plain.body.count).toBe(12)
    expect(ids(plain.body.results)).toEqual(ids(newest.slice(0, 10)))
    const all = await list('?status=queued,pinning,pinned,failed&limit=1000', { org })
    expect(all.body.count).toBe(14)
    expect(ids(all.body.results)).toEqual([stillQueued.body.requestid, queued.body.requestid, ...ids(newest)])
    expect((await list('?status=failed', { org })).body.results.map((r) => r.pin.name)).toEqual(['item-queued'])
    expect((await list('?status=queued', { org })).body.results.map((r) => r.pin.name)).toEqual(['item-waiting'])

    // paging: before = the oldest created of the page, until a page comes back short
    const seen: string[] = []
    let before = ''
    for (;;) {
      const page = await list(`?limit=5${before && `&before=${encodeURIComponent(before)}`}`, { org })
      expect(page.body.count).toBe(before ? page.body.count : 12)
      seen.push(...ids(page.body.results))
      if (page.body.results.length < 5) break
      before = page.body.results.at(-1)!.created
    }
    expect(seen).toEqual(ids(newest))
    // `after` is a filter too: every status unless `status` says
    const after = `?after=${encodeURIComponent(made[9]!.created)}`
    expect((await list(after, { org })).body.count).toBe(4)
    expect(ids((await list(`${after}&status=pinned`, { org })).body.results)).toEqual(ids(newest.slice(0, 2)))

    const twoCids = await list(`?cid=${held[0]},${held[1]}&limit=100`, { org })
    expect(twoCids.body.count).toBe(8)
    expect(twoCids.body.results.every((r) => r.pin.cid !== held[2])).toBe(true)
    const names = async (query: string) => (await list(query, { org })).body.results.map((r) => r.pin.name).sort()
    expect(await names('?name=Item-3.txt')).toEqual(['Item-3.txt'])
    expect(await names('?name=item-3.txt')).toEqual([])
    expect(await names('?name=item-3.TXT&match=iexact')).toEqual(['Item-3.txt'])
    expect(await names('?name=m-1&match=partial')).toEqual(['Item-1.txt', 'Item-10.txt', 'Item-11.txt'])
    expect(await names('?name=ITEM-1&match=ipartial')).toEqual(['Item-1.txt', 'Item-10.txt', 'Item-11.txt'])
    // a name filter is a filter: every status, not only pinned ones
    expect(await names('?name=item-&match=partial')).toEqual(['item-queued', 'item-waiting'])
    const meta = await list(`?meta=${encodeURIComponent('{"batch":"b","i":"7"}')}`, { org })
    expect(meta.body).toMatchObject({ count: 1, results: [{ pin: { name: 'Item-7.txt' } }] })
    expect((await list('?limit=1000', { org: 'someone-else' })).body).toEqual({ count: 0, results: [] })
  })

  it('POST /pins/{requestid} - replaces atomically: a new requestid, the old one gone, its file kept until the replacement ends', async () => {
    const original = (await add({ cid: held[0], name: 'original' })).body
    await drain()
    const replaced = await replace(original.requestid, { cid: held[1], name: 'replacement', meta: { v: '2' } })
    expect(replaced.status).toBe(202)
    expect(replaced.body.requestid).not.toBe(original.requestid)
    expect(replaced.body).toMatchObject({
      status: 'queued',
      pin: { cid: held[1], name: 'replacement', meta: { v: '2' } },
    })
    expect((await get(original.requestid)).status).toBe(404)
    // the original's file (and so its blocks) stays until the replacement is pinned
    expect((await v3File(original.requestid)).status).toBe(200)
    await drain()
    expect((await get(replaced.body.requestid)).body.status).toBe('pinned')
    expect((await v3File(original.requestid)).status).toBe(404)
    expect((await v3File(replaced.body.requestid)).status).toBe(200)
    // replacing one gone, or another tenant's, is a 404 and changes nothing
    expect((await replace(original.requestid, { cid: held[2] })).status).toBe(404)
    const foreign = await server.api(`${prefix}/pins/${replaced.body.requestid}`, {
      method: 'POST',
      body: JSON.stringify({ cid: held[2] }),
      org: 'mallory',
    })
    expect(foreign.status).toBe(404)
    expect((await get(replaced.body.requestid)).body.pin.cid).toBe(held[1])
    // a replacement deleted before it ends takes the file it was to replace with it
    const next = (await replace(replaced.body.requestid, { cid: MISSING_CID })).body
    expect((await v3File(replaced.body.requestid)).status).toBe(200)
    await remove(next.requestid)
    expect((await v3File(replaced.body.requestid)).status).toBe(404)
  })

  it('DELETE /pins/{requestid} - 202; a pinned one takes its file; deleting the file through v3 removes the pin', async () => {
    const a = (await add({ cid: held[2], name: 'to-unpin' })).body
    const b = (await add({ cid: held[2], name: 'to-delete-as-file' })).body
    await drain()
    expect(await remove(a.requestid, { org: 'mallory' })).toMatchObject({
      status: 404,
      body: { error: { reason: 'NOT_FOUND' } },
    })
    expect(await remove(a.requestid)).toEqual({ status: 202, body: undefined })
    expect((await get(a.requestid)).status).toBe(404)
    expect((await v3File(a.requestid)).status).toBe(404)
    expect((await remove(a.requestid)).status).toBe(404)
    expect((await server.api(`/v3/files/public/${b.requestid}`, { method: 'DELETE' })).status).toBe(200)
    expect((await get(b.requestid)).status).toBe(404)
    expect((await list(`?cid=${held[2]}&name=to-delete-as-file`)).body.count).toBe(0)
  })

  it('failures are the spec’s Failure with machine-readable reasons; nothing is stored', async () => {
    const before = (await list('?status=queued,pinning,pinned,failed')).body.count
    const noToken = await list('', { auth: null })
    expect(noToken).toMatchObject({ status: 401, body: { error: { reason: 'UNAUTHORIZED' } } })
    expect(await list('', { auth: 'purposefullyInvalid' })).toMatchObject({
      status: 401,
      body: { error: { reason: 'UNAUTHORIZED' } },
    })
    const readOnly = await server.token({ scopes: ['org:files:read'] })
    expect(await add({ cid: held[0] }, { auth: readOnly })).toMatchObject({
      status: 403,
      body: { error: { reason: 'FORBIDDEN' } },
    })
    for (const bad of [
      {},
      { cid: 'not-a-cid' },
      { cid: held[0], origins: ['/ip4/1.2.3.4/tcp/1'] },
      { cid: held[0], name: 'x'.repeat(256) },
    ]) {
      const res = await add(bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.error.reason).toBe('BAD_REQUEST')
      expect(res.body.error.details).toEqual(expect.any(String))
    }
    for (const query of [
      '?limit=0',
      '?limit=1001',
      '?status=done',
      '?match=fuzzy',
      '?before=yesterday',
      '?meta=nope',
      `?cid=${Array(11).fill(held[0]).join(',')}`,
    ]) {
      expect((await list(query)).body.error?.reason, query).toBe('BAD_REQUEST')
    }
    expect((await get('00000000-0000-4000-8000-000000000000')).body.error.reason).toBe('NOT_FOUND')
    expect((await get('not-a-request')).status).toBe(404)
    expect((await list('?status=queued,pinning,pinned,failed')).body.count).toBe(before)
  })

  it('the account’s share of the pin queue full: 429 RATE_LIMITED with Retry-After, the queue shared with v3', async () => {
    const org = `psa-full${prefix.replace('/', '-')}`
    for (let i = 0; i < 40; i++) expect((await add({ cid: MISSING_CID }, { org })).status).toBe(202)
    const v3 = await server.api('/v3/files/public/pin_by_cid', {
      method: 'POST',
      body: JSON.stringify({ cid: MISSING_CID }),
      org,
    })
    expect(v3.status).toBe(429)
    const res = await server.api(`${prefix}/pins`, { method: 'POST', body: JSON.stringify({ cid: MISSING_CID }), org })
    expect(res.headers.get('retry-after')).toBe('60')
    expect(await check('POST', '/pins', res)).toMatchObject({ error: { reason: 'RATE_LIMITED' } })
    await drain()
  })
})

describe('Pinning Service API failures', () => {
  it('409 INSUFFICIENT_FUNDS is a refusal to spend alone; a conflict is a 400; internals never leak', async () => {
    const cases: [PinfoldError | Error, number, string][] = [
      [new PinfoldError('PAYMENT_REQUIRED', 'pay first'), 409, 'INSUFFICIENT_FUNDS'],
      [new PinfoldError('CONFLICT', 'taken'), 400, 'CONFLICT'],
      [new PinfoldError('UNAVAILABLE', 'database down'), 503, 'SERVICE_UNAVAILABLE'],
      [new PinfoldError('INTERNAL', 'secret detail'), 500, 'INTERNAL_SERVER_ERROR'],
      [new Error('bug'), 500, 'INTERNAL_SERVER_ERROR'],
    ]
    for (const [error, status, reason] of cases) {
      const res = failureResponse(error)
      expect(res.status).toBe(status)
      const body = (await res.json()) as Failure
      expect(body.error.reason).toBe(reason)
      expect(body.error.details).not.toContain('secret')
    }
  })
})
