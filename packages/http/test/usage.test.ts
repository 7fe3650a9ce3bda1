import type { Clock } from '@pinfold/core'
import { chacha, type GatewayTestApi, requestOnHost, startGatewayApi } from '@pinfold/testing/gateway'
import { form, startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

interface TopItem {
  value: string
  requests: number
  bandwidth: number
}

interface TimeSeries {
  total_requests: number
  total_bandwidth: number
  time_periods: { period_start_time: string; requests: number; bandwidth: number }[]
}

const today = () => new Date().toISOString().slice(0, 10)

async function upload(server: TestApi, bytes: string | Uint8Array, fields: Record<string, string>, org?: string) {
  const res = await server.api('/v3/files', { method: 'POST', body: form(fields, { bytes, name: fields.name }), org })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: { id: string; cid: string; size: number } }).data
}

async function downloadLink(server: TestApi, cid: string, org?: string): Promise<string> {
  const res = await server.api('/v3/files/private/download_link', {
    method: 'POST',
    body: JSON.stringify({
      url: `${server.url}/files/${cid}`,
      expires: 600,
      date: Math.floor(Date.now() / 1000),
      method: 'GET',
    }),
    org,
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: string }).data
}

/** Follows a download link to its bytes (through a presigned redirect where the blob store gives one). */
async function downloaded(server: TestApi, link: string, headers: Record<string, string> = {}) {
  const res = await server.fetch(link, { headers, redirect: 'manual' })
  if (res.status !== 302) return { status: res.status, redirected: false, bytes: (await res.arrayBuffer()).byteLength }
  const moved = await fetch(res.headers.get('location')!, { headers })
  return { status: moved.status, redirected: true, bytes: (await moved.arrayBuffer()).byteLength }
}

async function top(server: TestApi, query: string, org?: string): Promise<TopItem[]> {
  const res = await server.api(`/v3/ipfs/gateway_analytics_top?${query}`, { org })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: TopItem[] }).data
}

async function series(server: TestApi, query: string, org?: string): Promise<TimeSeries> {
  const res = await server.api(`/v3/ipfs/gateway_analytics_time_series?${query}`, { org })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: TimeSeries }).data
}

describe('usage: storage totals and gateway analytics', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  it("userPinnedDataTotal - counts the tenant's files on both networks and sums their sizes", async () => {
    const org = 'storage-tenant'
    const a = await upload(server, 'x'.repeat(1000), { network: 'public', name: 'a.txt' }, org)
    const b = await upload(server, 'y'.repeat(2345), { network: 'private', name: 'b.txt' }, org)
    await upload(server, 'not mine', { network: 'public', name: 'c.txt' }, 'someone-else')
    for (const path of ['/data/userPinnedDataTotal', '/v3/data/userPinnedDataTotal']) {
      const res = await server.api(path, { org })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({
        pin_count: 2,
        pin_size_total: a.size + b.size,
        pin_size_with_replications_total: a.size + b.size,
      })
    }
  })

  it('analytics - private downloads are counted by CID, file name, status and the bytes that went out', async () => {
    const org = 'analytics-tenant'
    const report = await upload(server, 'r'.repeat(5000), { network: 'private', name: 'report.pdf' }, org)
    const logo = await upload(server, 'l'.repeat(300), { network: 'private', name: 'logo.png' }, org)
    for (let i = 0; i < 3; i++) {
      expect((await downloaded(server, await downloadLink(server, report.cid, org))).bytes).toBe(5000)
    }
    const ranged = await downloaded(server, await downloadLink(server, logo.cid, org), { range: 'bytes=0-99' })
    const head = await server.fetch(await downloadLink(server, logo.cid, org), { method: 'HEAD', redirect: 'manual' })
    expect([200, 302]).toContain(head.status)
    // where the blob store presigns (S3) the link redirects there, and the file's size is counted
    const logoBytes = ranged.redirected ? 300 : 100
    expect(ranged).toMatchObject({ status: 206, bytes: 100 })

    const range = `start_date=${today()}&end_date=${today()}`
    expect(await top(server, `${range}&by=cid&sort_by=requests`, org)).toEqual([
      { value: report.cid, requests: 3, bandwidth: 15000 },
      { value: logo.cid, requests: 2, bandwidth: logoBytes },
    ])
    expect(await top(server, `${range}&by=file_name&sort_by=bandwidth&sort_order=asc&limit=1`, org)).toEqual([
      { value: 'logo.png', requests: 2, bandwidth: logoBytes },
    ])
    expect(await top(server, `${range}&cid=${logo.cid}`, org)).toEqual([
      { value: logo.cid, requests: 2, bandwidth: logoBytes },
    ])
    expect(await top(server, range, 'a-tenant-with-no-traffic')).toEqual([])
  })

  it('analytics - counts are written in batches: no write per request, one per flush', async () => {
    const org = 'batching-tenant'
    const file = await upload(server, 'batched', { network: 'private', name: 'batched.txt' }, org)
    const link = await downloadLink(server, file.cid, org)
    await server.service.usage.flush()
    const records = server.stores.records
    const add = records.usage.addGatewayUsage
    let writes = 0
    records.usage.addGatewayUsage = (counts, limits, options) => {
      writes += 1
      return add.call(records.usage, counts, limits, options)
    }
    try {
      for (let i = 0; i < 20; i++) await downloaded(server, link)
      expect(writes).toBe(0)
      expect(await top(server, `start_date=${today()}&end_date=${today()}`, org)).toEqual([
        { value: file.cid, requests: 20, bandwidth: 20 * 'batched'.length },
      ])
      expect(writes).toBe(1)
    } finally {
      records.usage.addGatewayUsage = add
    }
  })

  it('analytics - a failed flush keeps its counts for the next one', async () => {
    const org = 'flaky-store-tenant'
    const file = await upload(server, 'kept', { network: 'private', name: 'kept.txt' }, org)
    await downloaded(server, await downloadLink(server, file.cid, org))
    const records = server.stores.records
    const add = records.usage.addGatewayUsage
    records.usage.addGatewayUsage = async () => {
      throw new Error('database down')
    }
    try {
      await expect(server.service.usage.flush()).rejects.toThrow('database down')
    } finally {
      records.usage.addGatewayUsage = add
    }
    await downloaded(server, await downloadLink(server, file.cid, org))
    expect(await top(server, `start_date=${today()}&end_date=${today()}`, org)).toEqual([
      { value: file.cid, requests: 2, bandwidth: 8 },
    ])
  })

  it.each([
    ['gateway_analytics_top?by=country', 'country is not recorded by Pinfold: group by cid or file_name'],
    ['gateway_analytics_top?user_agent=curl', 'user_agent is not recorded by Pinfold: filter by cid or file_name'],
    ['gateway_analytics_top?by=size', 'by must be cid or file_name'],
    ['gateway_analytics_top?start_date=2026-02-30', 'start_date must be a date, YYYY-MM-DD'],
    ['gateway_analytics_top?start_date=2026-03-02&end_date=2026-03-01', 'start_date must not be after end_date'],
    ['gateway_analytics_top?start_date=2020-01-01&end_date=2026-01-01', 'a range spans at most 366 days'],
    ['gateway_analytics_top?cid=nope', '"nope" is not a valid CID'],
    ['gateway_analytics_time_series?by=month', 'by must be day or week'],
    ['gateway_analytics_top?sort_by=size', 'sort_by must be requests or bandwidth'],
  ])('analytics - %s is a 400', async (query, error) => {
    const res = await server.api(`/v3/ipfs/${query}`)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error })
  })

  it('analytics - needs a token with org:analytics:read (org:read and org:write cover it)', async () => {
    const path = '/v3/ipfs/gateway_analytics_top'
    expect((await server.api(path, { auth: await server.token({ scopes: ['org:files:read'] }) })).status).toBe(403)
    expect((await server.api(path, { auth: await server.token({ scopes: ['org:write'] }) })).status).toBe(200)
    expect((await server.api(path, { auth: null })).status).toBe(401)
  })
})

describe('usage: abandoned downloads', () => {
  let server: TestApi
  beforeAll(async () => {
    // files on disk are read in chunks (a memory blob is one chunk): the client can stop mid-file
    server = await startTestApi({ storage: 'embedded' })
  })
  afterAll(() => server.close())

  it('analytics - a download the client abandons counts the bytes it read, not the file size', async () => {
    const size = 8 * 1024 * 1024
    const big = await upload(server, chacha('abandoned', size), { network: 'private', name: 'big.bin' })
    const res = await server.fetch(await downloadLink(server, big.cid), { redirect: 'manual' })
    if (res.status === 302) {
      // S3 serves the bytes itself: Pinfold counts the file it handed out
      expect((await top(server, `start_date=${today()}&end_date=${today()}`))[0]).toMatchObject({ bandwidth: size })
      return
    }
    const reader = res.body!.getReader()
    let received = 0
    while (received < 100_000) received += (await reader.read()).value!.byteLength
    await reader.cancel()
    const [item] = await top(server, `start_date=${today()}&end_date=${today()}`)
    expect(item!.requests).toBe(1)
    expect(item!.bandwidth).toBeGreaterThanOrEqual(received)
    expect(item!.bandwidth).toBeLessThan(size / 2)
  })
})

describe('usage: time series by day and week', () => {
  let now = Date.parse('2026-03-02T12:00:00Z') // a Monday
  const clock: Clock = { now: () => new Date(now) }
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi({ clock })
  })
  afterAll(() => server.close())

  it('summary - totals per day or per ISO week, in time order or sorted by requests or bandwidth', async () => {
    const hit = (day: string, bytes: number) => {
      now = Date.parse(`${day}T12:00:00Z`)
      server.service.usage.recordGatewayHit({ tenantId: 'acme', cid: 'bafkqaaa', fileName: 'x', status: 200, bytes })
    }
    hit('2026-03-02', 10) // Monday
    hit('2026-03-08', 20) // Sunday, same week
    hit('2026-03-09', 5) // next Monday
    hit('2026-03-09', 5)
    hit('2026-03-20', 1)
    const range = 'start_date=2026-03-01&end_date=2026-03-31'
    expect(await series(server, `${range}&by=day`)).toEqual({
      total_requests: 5,
      total_bandwidth: 41,
      time_periods: [
        { period_start_time: '2026-03-02T00:00:00Z', requests: 1, bandwidth: 10 },
        { period_start_time: '2026-03-08T00:00:00Z', requests: 1, bandwidth: 20 },
        { period_start_time: '2026-03-09T00:00:00Z', requests: 2, bandwidth: 10 },
        { period_start_time: '2026-03-20T00:00:00Z', requests: 1, bandwidth: 1 },
      ],
    })
    expect((await series(server, `${range}&by=week`)).time_periods).toEqual([
      { period_start_time: '2026-03-02T00:00:00Z', requests: 2, bandwidth: 30 },
      { period_start_time: '2026-03-09T00:00:00Z', requests: 2, bandwidth: 10 },
      { period_start_time: '2026-03-16T00:00:00Z', requests: 1, bandwidth: 1 },
    ])
    const byBandwidth = await series(server, `${range}&by=day&sort_by=bandwidth&sort_order=desc&limit=2`)
    expect(byBandwidth.time_periods.map((p) => p.bandwidth)).toEqual([20, 10])
    expect(byBandwidth.total_bandwidth).toBe(41)
    const march9 = await series(server, 'start_date=2026-03-09&end_date=2026-03-09&by=day')
    expect(march9).toEqual({
      total_requests: 2,
      total_bandwidth: 10,
      time_periods: [{ period_start_time: '2026-03-09T00:00:00Z', requests: 2, bandwidth: 10 }],
    })
  })
})

describe("usage: a tenant's custom domain", () => {
  let server: GatewayTestApi
  const txt = new Map<string, string[][]>()
  beforeAll(async () => {
    server = await startGatewayApi({
      publicHost: true,
      resolveTxt: async (name) => {
        const records = txt.get(name)
        if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
        return records
      },
    })
  })
  afterAll(() => server.close())

  it("domain - what the tenant's domain serves is counted under the file's name; the shared gateway is nobody's", async () => {
    const page = (await server.upload('<h1>counted</h1>', { network: 'public', name: 'index.html' })).cid as string
    const created = await server.api('/v3/gateways/domains', {
      method: 'POST',
      body: JSON.stringify({ domain: 'files.acme.test' }),
    })
    const domain = ((await created.json()) as { data: { id: string; verification: { value: string } } }).data
    txt.set('_service-verify.files.acme.test', [[domain.verification.value]])
    await server.api(`/v3/gateways/domains/${domain.id}/verify`, { method: 'POST' })
    for (let i = 0; i < 2; i++)
      expect((await requestOnHost(server, 'files.acme.test', `/ipfs/${page}`)).status).toBe(200)
    expect((await server.fetch(`${server.url}/ipfs/${page}`)).status).toBe(200)
    expect(await top(server, `start_date=${today()}&end_date=${today()}&by=file_name`)).toEqual([
      { value: 'index.html', requests: 2, bandwidth: 2 * '<h1>counted</h1>'.length },
    ])
  })
})

describe("usage: what a tenant's dedicated gateway counts", () => {
  const GATEWAY = 'counted.gw.pinfold.test'
  const ROWS_PER_DAY = 3
  let server: GatewayTestApi
  beforeAll(async () => {
    server = await startGatewayApi({
      publicHost: true,
      gatewayDomain: 'gw.pinfold.test',
      maxUsageRowsPerDay: ROWS_PER_DAY,
    })
    for (const [name, org] of [
      ['counted', undefined],
      ['capped', 'capped-tenant'],
    ]) {
      const claimed = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name }), org })
      expect(claimed.status).toBe(201)
    }
  })
  afterAll(() => server.close())

  const todays = (org?: string) => top(server, `start_date=${today()}&end_date=${today()}&limit=1000`, org)

  it('anonymous answers that served no CID of the tenant write no row: 405, 406, unknown and identity CIDs', async () => {
    const held = (await server.upload('held here', { network: 'public', name: 'held.txt' })).cid as string
    const statuses = new Set<number>()
    for (let i = 0; i < 20; i++) {
      const junk = `junk-${i}-${'x'.repeat(200)}`
      statuses.add((await requestOnHost(server, GATEWAY, `/ipfs/${junk}`, { method: 'POST' })).status)
      statuses.add(
        // a well-formed CID the tenant does not hold, asked as a type the gateway never serves:
        // refused (406) before any content is looked up
        (
          await requestOnHost(server, GATEWAY, '/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', {
            headers: { accept: 'application/vnd.ipfs.ipns-record' },
          })
        ).status,
      )
      statuses.add((await requestOnHost(server, GATEWAY, `/ipfs/${junk}`)).status)
    }
    // CIDs the tenant does not hold, and identity CIDs (their bytes are in the CID: anyone can make one)
    const unheld = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    statuses.add((await requestOnHost(server, GATEWAY, `/ipfs/${unheld}`)).status)
    const { CID } = await import('multiformats/cid')
    const { identity } = await import('multiformats/hashes/identity')
    for (const text of ['one', 'two', 'three']) {
      const cid = CID.createV1(0x55, identity.digest(new TextEncoder().encode(text)))
      expect((await requestOnHost(server, GATEWAY, `/ipfs/${cid}`)).status).toBe(200)
    }
    expect([...statuses].sort()).toEqual([400, 404, 405, 406])
    expect((await requestOnHost(server, GATEWAY, `/ipfs/${held}`)).status).toBe(200)
    expect(await todays()).toEqual([{ value: held, requests: 1, bandwidth: 'held here'.length }])
  })

  it('memory between flushes holds at most the cap and one "other" count per tenant and day', async () => {
    await server.service.usage.flush()
    const records = server.stores.records
    const add = records.usage.addGatewayUsage
    const batches: number[] = []
    records.usage.addGatewayUsage = (counts, limits, options) => {
      batches.push(counts.length)
      return add.call(records.usage, counts, limits, options)
    }
    try {
      for (let i = 0; i < 5000; i++) {
        server.service.usage.recordGatewayHit({ tenantId: 'buffered-tenant', cid: `cid-${i}`, status: 200, bytes: 1 })
      }
      await server.service.usage.flush()
      expect(batches).toEqual([ROWS_PER_DAY + 1])
    } finally {
      records.usage.addGatewayUsage = add
    }
    expect(await todays('buffered-tenant')).toContainEqual({
      value: 'other',
      requests: 5000 - ROWS_PER_DAY,
      bandwidth: 4997,
    })
  })

  it(`distinct rows per tenant and day are capped (${ROWS_PER_DAY}): the rest count in one "other" row`, async () => {
    const org = 'capped-tenant'
    const cids: string[] = []
    for (let i = 0; i < 6; i++) cids.push((await server.upload(`file ${i}`, { network: 'public' }, org)).cid as string)
    for (const cid of cids) {
      expect((await requestOnHost(server, 'capped.gw.pinfold.test', `/ipfs/${cid}`)).status).toBe(200)
    }
    const rows = await todays(org)
    expect(rows).toHaveLength(ROWS_PER_DAY + 1)
    expect(rows.find((row) => row.value === 'other')).toEqual({
      value: 'other',
      requests: 6 - ROWS_PER_DAY,
      bandwidth: (6 - ROWS_PER_DAY) * 'file 0'.length,
    })
    const totals = await series(server, `start_date=${today()}&end_date=${today()}`, org)
    expect(totals).toMatchObject({ total_requests: 6, total_bandwidth: 6 * 'file 0'.length })
  })
})
