import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chacha } from '@pinfold/testing/gateway'
import { form, TEST_SECRET, testTokens } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPrometheusMetrics, readConfig, startServer } from '../src/index.js'
import { bearerMatches } from '../src/metrics/metrics-endpoint.js'
import { histogramCount, type Scrape, scrape } from './support/scrape.js'
import { startTestServer, type TestServer } from './support/server.js'

/**
 * `/metrics` scraped over HTTP from a real server after real traffic on every upload path and the
 * gateway, parsed by a Prometheus text-format parser: each counter moves by what was sent.
 */

const TOKEN = 'metrics-operator-token-0123456789'

/** A FormData as the exact bytes a client sends, so the test knows the Content-Length. */
async function encoded(body: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const request = new Request('http://x/', { method: 'POST', body })
  return { bytes: new Uint8Array(await request.arrayBuffer()), type: request.headers.get('content-type')! }
}

describe('GET /metrics behind PINFOLD_METRICS_TOKEN', () => {
  let server: TestServer
  const metricsUrl = () => `${server.url}/metrics`
  const read = () => scrape(metricsUrl(), TOKEN)

  /** The change of a counter or gauge between two scrapes. */
  const moved = (before: Scrape, after: Scrape, pick: (s: Scrape) => number) => pick(after) - pick(before)
  /** A histogram's observation counts, by label set, from the server's registry. */
  const histograms = (name: string, labelSets: Record<string, string>[]) =>
    Promise.all(labelSets.map((labels) => histogramCount(server.running.metrics!.registry, name, labels)))
  const UPLOAD_PATHS = ['multipart', 'tus', 'signed_url', 'legacy', 'pin_by_cid'].map((path) => ({ path }))

  beforeAll(async () => {
    server = await startTestServer({ PINFOLD_METRICS_TOKEN: TOKEN, PINFOLD_PIN_POLL_MS: '0' })
  })
  afterAll(() => server?.close())

  it('metrics - refuses a scrape without the token, or with a wrong one of any length (401 JSON)', async () => {
    const wrong = [undefined, 'Bearer x', `Bearer ${TOKEN.slice(0, -1)}X`, `Bearer ${TOKEN}${TOKEN}`, `Basic ${TOKEN}`]
    for (const authorization of wrong) {
      const res = await fetch(metricsUrl(), authorization === undefined ? {} : { headers: { authorization } })
      expect(res.status, authorization).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
      expect(((await res.json()) as { error: string }).error).toMatch(/operator token/)
    }
    const ok = await fetch(metricsUrl(), { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  })

  it('metrics - the token compare takes any length of guess (hashed first) and matches only the token', () => {
    // timingSafeEqual on the raw strings would throw on a length mismatch: a 500, and a length oracle
    for (const guess of ['', 'a', TOKEN.slice(1), `${TOKEN}a`, 'é'.repeat(40)]) {
      expect(bearerMatches(`Bearer ${guess}`, TOKEN)).toBe(false)
    }
    expect(bearerMatches(null, TOKEN)).toBe(false)
    expect(bearerMatches(`bearer  ${TOKEN}`, TOKEN)).toBe(true)
  })

  it('metrics - process metrics: event-loop delay, heap, open descriptors', async () => {
    const scraped = await read()
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'process_open_fds']) {
      expect(scraped.family(name), name).toBeDefined()
    }
    expect(scraped.value('process_open_fds')).toBeGreaterThan(0)
  })

  it('metrics - the work pools: tasks running and waiting, refusals, read at scrape time', async () => {
    const scraped = await read()
    for (const pool of ['extraction', 'images']) {
      expect(scraped.samples('pinfold_pool_tasks', { pool, state: 'running' }), pool).toHaveLength(1)
      expect(scraped.samples('pinfold_pool_tasks', { pool, state: 'waiting' }), pool).toHaveLength(1)
      expect(scraped.samples('pinfold_pool_refused_total', { pool }), pool).toHaveLength(1)
    }
  })

  it('metrics - uploads count their bytes and time by path: multipart, tus, signed URL, legacy, pin by CID', async () => {
    const before = await read()
    const uploadsBefore = await histograms('pinfold_upload_duration_seconds', UPLOAD_PATHS)
    const auth = { authorization: `Bearer ${await server.token()}` }

    const multipart = await encoded(
      form({ network: 'public' }, { bytes: chacha('metrics multipart', 70_000), name: 'm.bin' }),
    )
    const res1 = await fetch(`${server.url}/v3/files`, {
      method: 'POST',
      headers: { ...auth, 'content-type': multipart.type },
      body: multipart.bytes,
    })
    expect(res1.status).toBe(200)
    const uploaded = ((await res1.json()) as { data: { cid: string; id: string } }).data

    const tusBytes = chacha('metrics tus', 40_000)
    const created = await fetch(`${server.url}/v3/files`, {
      method: 'POST',
      headers: { ...auth, 'tus-resumable': '1.0.0', 'upload-length': String(tusBytes.length) },
    })
    expect(created.status).toBe(201)
    const patched = await fetch(new URL(created.headers.get('location')!, server.url), {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: tusBytes,
    })
    expect(patched.status).toBe(204)

    const signing = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ date: Math.floor(Date.now() / 1000), expires: 600 }),
    })
    const signedUrl = ((await signing.json()) as { data: string }).data
    const signed = await encoded(form({ network: 'public' }, { bytes: chacha('metrics signed', 9_000), name: 's.bin' }))
    const res3 = await fetch(signedUrl, {
      method: 'POST',
      headers: { 'content-type': signed.type },
      body: signed.bytes,
    })
    expect(res3.status).toBe(200)

    const legacyForm = new FormData()
    legacyForm.append('file', new Blob([chacha('metrics legacy', 5_000)]), 'l.bin')
    const legacy = await encoded(legacyForm)
    const res4 = await fetch(`${server.url}/pinning/pinFileToIPFS`, {
      method: 'POST',
      headers: { ...auth, 'content-type': legacy.type },
      body: legacy.bytes,
    })
    expect(res4.status).toBe(200)

    const pin = await server.api('/v3/files/public/pin_by_cid', {
      method: 'POST',
      body: JSON.stringify({ cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' }),
    })
    expect(pin.status).toBe(200)

    // a refused upload counts as a request, never as an upload
    const refused = await fetch(`${server.url}/v3/files`, { method: 'POST', headers: auth, body: 'not multipart' })
    expect(refused.status).toBe(400)

    const after = await read()
    const uploadsAfter = await histograms('pinfold_upload_duration_seconds', UPLOAD_PATHS)
    const bytes = (path: string) => moved(before, after, (s) => s.value('pinfold_upload_bytes_total', { path }))
    const uploads = (path: string) => {
      const at = UPLOAD_PATHS.findIndex((labels) => labels.path === path)
      return uploadsAfter[at]! - uploadsBefore[at]!
    }
    expect(bytes('multipart')).toBe(multipart.bytes.length)
    expect(uploads('multipart')).toBe(1)
    expect(bytes('tus')).toBe(tusBytes.length) // the creation carries no body
    expect(uploads('tus')).toBe(2)
    expect(bytes('signed_url')).toBe(signed.bytes.length)
    expect(uploads('signed_url')).toBe(1)
    expect(bytes('legacy')).toBe(legacy.bytes.length)
    expect(uploads('legacy')).toBe(1)
    expect(uploads('pin_by_cid')).toBe(1)

    const requests = (labels: Record<string, string>) =>
      moved(before, after, (s) => s.value('pinfold_http_requests_total', labels))
    expect(requests({ method: 'POST', route: '/v3/files', code: '200' })).toBe(1)
    expect(requests({ method: 'POST', route: '/v3/files', code: '201' })).toBe(1)
    expect(requests({ method: 'POST', route: '/v3/files', code: '400' })).toBe(1)
    expect(requests({ method: 'PATCH', route: '/v3/files/:id/:token', code: '204' })).toBe(1)
    // the route is its pattern, never the raw path: no label holds an id
    await server.api(`/v3/files/public/${uploaded.id}`)
    await fetch(`${server.url}/no/such/${uploaded.id}`)
    const later = await read()
    expect(
      moved(after, later, (s) => s.value('pinfold_http_requests_total', { route: '/v3/files/:network/:id' })),
    ).toBe(1)
    expect(
      moved(after, later, (s) => s.value('pinfold_http_requests_total', { route: 'unmatched', code: '404' })),
    ).toBe(1)
    const routes = later.samples('pinfold_http_requests_total').map((sample) => sample.labels?.route ?? '')
    expect(routes.filter((route) => route.includes(uploaded.id) || route.includes(uploaded.cid))).toEqual([])
    expect(later.family('pinfold_http_request_duration_seconds')?.type).toBe('HISTOGRAM')
    const [latency] = await histograms('pinfold_http_request_duration_seconds', [{ route: '/v3/files', code: '200' }])
    expect(latency).toBe(
      requests({ route: '/v3/files', code: '200' }) +
        before.value('pinfold_http_requests_total', { route: '/v3/files', code: '200' }),
    )
  })

  it('metrics - gateway answers count by format: responses, bytes the client read, time to first byte', async () => {
    const content = chacha('metrics gateway', 300_000)
    const res = await server.api('/v3/files', { method: 'POST', body: form({ network: 'public' }, { bytes: content }) })
    const { cid } = ((await res.json()) as { data: { cid: string } }).data
    const before = await read()
    const GW = [{ format: 'unixfs' }, { format: 'car' }]
    const firstBytesBefore = await histograms('ipfs_http_gw_time_to_first_byte_seconds', GW)
    const durationsBefore = await histograms('ipfs_http_gw_get_duration_seconds', GW)
    const bodies: Record<string, number> = { unixfs: 0, raw: 0, car: 0 }
    for (const [format, query] of [
      ['unixfs', ''],
      ['unixfs', ''],
      ['raw', '?format=raw'],
      ['car', '?format=car'],
    ] as const) {
      const got = await fetch(`${server.url}/ipfs/${cid}${query}`)
      expect(got.status).toBe(200)
      bodies[format]! += (await got.arrayBuffer()).byteLength
    }
    // a range read counts what was sent, not the file's size
    const range = await fetch(`${server.url}/ipfs/${cid}`, { headers: { range: 'bytes=0-99' } })
    expect(range.status).toBe(206)
    bodies.unixfs! += (await range.arrayBuffer()).byteLength
    expect(bodies.unixfs).toBe(2 * content.length + 100)
    const missing = await fetch(`${server.url}/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`)
    expect(missing.status).toBe(404)
    bodies.unixfs! += (await missing.arrayBuffer()).byteLength // an error's body is sent too

    const after = await read()
    const gw = (name: string, labels: Record<string, string>) => moved(before, after, (s) => s.value(name, labels))
    expect(gw('ipfs_http_gw_responses_total', { code: '200', format: 'unixfs' })).toBe(2)
    expect(gw('ipfs_http_gw_responses_total', { code: '206', format: 'unixfs' })).toBe(1)
    expect(gw('ipfs_http_gw_responses_total', { code: '200', format: 'raw' })).toBe(1)
    expect(gw('ipfs_http_gw_responses_total', { code: '200', format: 'car' })).toBe(1)
    expect(gw('ipfs_http_gw_responses_total', { code: '404' })).toBe(1)
    for (const format of ['unixfs', 'raw', 'car']) {
      expect(gw('ipfs_http_gw_sent_bytes_total', { format }), format).toBe(bodies[format])
    }
    const firstBytes = await histograms('ipfs_http_gw_time_to_first_byte_seconds', GW)
    const durations = await histograms('ipfs_http_gw_get_duration_seconds', GW)
    expect(firstBytes[0]! - firstBytesBefore[0]!).toBe(4) // the 404 has a body too
    expect(durations[0]! - durationsBefore[0]!).toBe(4)
    expect(durations[1]! - durationsBefore[1]!).toBe(1)
    expect(after.value('ipfs_http_gw_concurrent_requests')).toBe(0)
    expect(gw('pinfold_http_requests_total', { route: 'gateway', method: 'GET' })).toBe(6)
  })
})

describe('PINFOLD_METRICS_LISTEN: /metrics on an address of its own', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ PINFOLD_METRICS_LISTEN: '127.0.0.1:0' })
  })
  afterAll(() => server?.close())

  it('metrics - served there without a token, and the API address answers 404 for /metrics', async () => {
    const url = server.running.metricsUrl!
    expect(new URL(url).port).not.toBe(new URL(server.url).port)
    await server.api('/v3/files/public')
    const scraped = await scrape(url)
    expect(scraped.value('pinfold_http_requests_total', { route: '/v3/files/:network', code: '200' })).toBe(1)
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404)
    const other = await fetch(new URL('/v3/files/public', url))
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({ error: 'this address serves /metrics only' })
  })
})

describe('metrics off (neither setting)', () => {
  it('metrics - /metrics is a 404 and no listener starts', async () => {
    const server = await startTestServer()
    try {
      expect(server.running.metrics).toBeUndefined()
      expect(server.running.metricsUrl).toBeUndefined()
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404)
    } finally {
      await server.close()
    }
  })

  it('config - a short metrics token and a listen address without a port are refused at start-up', () => {
    expect(() => readConfig({ PINFOLD_METRICS_TOKEN: 'short' })).toThrow(/PINFOLD_METRICS_TOKEN.*16 characters/)
    expect(() => readConfig({ PINFOLD_METRICS_LISTEN: '127.0.0.1' })).toThrow(/PINFOLD_METRICS_LISTEN.*host:port/)
    expect(() => readConfig({ PINFOLD_METRICS_LISTEN: '127.0.0.1:70000' })).toThrow(/PINFOLD_METRICS_LISTEN/)
    expect(readConfig({ PINFOLD_METRICS_LISTEN: '[::1]:9464' }).metrics.listen).toEqual({ host: '::1', port: 9464 })
  })
})

describe('database metrics on the embedded database (PGlite)', () => {
  // a first start of the embedded database (its migrations) takes ~12 s here, 45 s on a loaded machine
  it('metrics - record store statements and transactions are timed at the SqlClient boundary', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-metrics-'))
    const running = await startServer(
      readConfig({
        PORT: '0',
        PINFOLD_DATA_DIR: dataDir,
        PINFOLD_AUTH_SECRET: TEST_SECRET,
        PINFOLD_METRICS_TOKEN: TOKEN,
      }),
    )
    try {
      const registry = running.metrics!.registry
      const timed = (kind: string) =>
        histogramCount(registry, 'pinfold_db_query_duration_seconds', { kind, outcome: 'ok' })
      const before = [await timed('statement'), await timed('transaction')]
      // a gateway miss asks the block index (a statement); an upload commits in a transaction
      await fetch(`${running.url}/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`)
      const token = testTokens()
      const res = await fetch(`${running.url}/v3/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await token()}` },
        body: form({ network: 'public' }, { bytes: 'db metrics', name: 'db.txt' }),
      })
      expect(res.status).toBe(200)
      expect(await timed('statement')).toBeGreaterThan(before[0]!)
      expect(await timed('transaction')).toBeGreaterThan(before[1]!)
      const scraped = await scrape(`${running.url}/metrics`, TOKEN)
      expect(scraped.family('pinfold_db_query_duration_seconds')?.type).toBe('HISTOGRAM')
    } finally {
      await running.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('deployment totals: stored content and the pin queue, read at scrape time', () => {
  it('metrics - files, logical and physical bytes (a duplicate across tenants stored once), blocks, pins by state', async () => {
    const running = await startServer(
      readConfig({
        PORT: '0',
        PINFOLD_STORAGE: 'memory',
        PINFOLD_AUTH_SECRET: TEST_SECRET,
        PINFOLD_METRICS_TOKEN: TOKEN,
        PINFOLD_PIN_POLL_MS: '0', // no worker: the request stays queued
      }),
      { metrics: createPrometheusMetrics({ totalsMaxAgeMs: 0 }) },
    )
    try {
      const tokens = testTokens()
      const bytes = chacha('metrics totals', 600_000)
      for (const org of ['acme', 'other-org']) {
        const res = await fetch(`${running.url}/v3/files`, {
          method: 'POST',
          headers: { authorization: `Bearer ${await tokens({ org })}` },
          body: form({ network: 'public' }, { bytes, name: 'same.bin' }),
        })
        expect(res.status).toBe(200)
      }
      const pin = await fetch(`${running.url}/v3/files/public/pin_by_cid`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await tokens()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' }),
      })
      expect(pin.status).toBe(200)
      const scraped = await scrape(`${running.url}/metrics`, TOKEN)
      expect(scraped.value('pinfold_stored_files')).toBe(2)
      expect(scraped.value('pinfold_stored_logical_bytes')).toBe(2 * bytes.length)
      expect(scraped.value('pinfold_stored_contents')).toBe(1)
      expect(scraped.value('pinfold_stored_physical_bytes')).toBe(bytes.length)
      // 600 000 bytes in 256 KiB leaves: 3 leaves and the root
      expect(scraped.value('pinfold_stored_blocks')).toBe(4)
      expect(scraped.value('pinfold_pin_requests', { state: 'queued' })).toBe(1)
      expect(scraped.value('pinfold_pin_requests', { state: 'pinned' })).toBe(0)
      expect(scraped.samples('pinfold_pin_request_oldest_age_seconds', { state: 'queued' })).toHaveLength(1)
      expect(scraped.samples('pinfold_pin_request_oldest_age_seconds', { state: 'failed' })).toHaveLength(0)
    } finally {
      await running.close()
    }
  })
})
