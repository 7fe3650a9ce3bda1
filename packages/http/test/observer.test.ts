import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, mintToken, SCOPES } from '@pinfold/core'
import { chacha } from '@pinfold/testing/gateway'
import { form, TEST_SECRET } from '@pinfold/testing/test-api'
import { describe, expect, it } from 'vitest'
import {
  type AnsweredRequest,
  createFetchHandler,
  type GatewayServed,
  type HttpObserver,
  type UploadObserved,
} from '../src/index.js'

/**
 * The `observer` option: what the handler tells a metrics collector, in process. (The Prometheus
 * registry on top of it, scraped over HTTP: packages/server/test/metrics.test.ts.)
 */

function setup() {
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    signingSecret: TEST_SECRET,
  })
  const answered: AnsweredRequest[] = []
  const gateway: GatewayServed[] = []
  const uploads: UploadObserved[] = []
  let started = 0
  const observer: HttpObserver = {
    answered: (request) => answered.push(request),
    gatewayStarted: () => {
      started++
      return (served) => gateway.push(served)
    },
    uploaded: (upload) => uploads.push(upload),
  }
  const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: TEST_SECRET }), observer })
  const token = mintToken(TEST_SECRET, { sub: 'alice', org: 'acme', scopes: SCOPES, expiresIn: '1h' })
  const call = async (path: string, init: RequestInit = {}) =>
    handler(
      new Request(`http://api.test${path}`, {
        ...init,
        headers: { authorization: `Bearer ${await token}`, ...(init.headers as Record<string, string>) },
      }),
    )
  return { call, answered, gateway, uploads, started: () => started }
}

async function uploaded(call: ReturnType<typeof setup>['call'], bytes: Uint8Array) {
  const body = new Request('http://x/', { method: 'POST', body: form({ network: 'public' }, { bytes, name: 'f.bin' }) })
  const encoded = new Uint8Array(await body.arrayBuffer())
  const res = await call('/v3/files', {
    method: 'POST',
    // as on the wire: an in-process Request carries no Content-Length of its own
    headers: { 'content-type': body.headers.get('content-type')!, 'content-length': String(encoded.length) },
    body: encoded,
  })
  expect(res.status).toBe(200)
  return { length: encoded.length, ...((await res.json()) as { data: { id: string; cid: string } }).data }
}

describe('createFetchHandler({ observer })', () => {
  it('observer - each answer once, by its route pattern (never the raw path), status and duration', async () => {
    const { call, answered } = setup()
    const file = await uploaded(call, chacha('observer route', 1000))
    await call(`/v3/files/public/${file.id}`)
    await call('/no/such/path')
    expect(answered.map(({ method, route, status }) => ({ method, route, status }))).toEqual([
      { method: 'POST', route: '/v3/files', status: 200 },
      { method: 'GET', route: '/v3/files/:network/:id', status: 200 },
      { method: 'GET', route: 'unmatched', status: 404 },
    ])
    for (const { seconds } of answered) expect(seconds).toBeGreaterThanOrEqual(0)
  })

  it('observer - uploads by path with the declared body length; a refused upload is no upload', async () => {
    const { call, uploads } = setup()
    const file = await uploaded(call, chacha('observer upload', 5000))
    const created = await call('/v3/files', {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '10' },
    })
    expect(created.status).toBe(201)
    const refused = await call('/v3/files', { method: 'POST', body: 'not multipart' })
    expect(refused.status).toBe(400)
    expect(uploads.map(({ path, bytes }) => ({ path, bytes }))).toEqual([
      { path: 'multipart', bytes: file.length },
      { path: 'tus', bytes: 0 },
    ])
  })

  it('observer - a gateway body is observed when it ends: its format, the bytes read, the first byte', async () => {
    const { call, gateway, started } = setup()
    const content = chacha('observer gateway', 200_000)
    const { cid } = await uploaded(call, content)
    const whole = await call(`/ipfs/${cid}`)
    expect(gateway).toEqual([]) // not before the body is read
    expect((await whole.arrayBuffer()).byteLength).toBe(content.length)
    const raw = await call(`/ipfs/${cid}`, { headers: { accept: 'application/vnd.ipld.raw' } })
    await raw.arrayBuffer()
    const car = await call(`/ipfs/${cid}?format=car`)
    await car.arrayBuffer()
    expect(gateway.map(({ format, status }) => ({ format, status }))).toEqual([
      { format: 'unixfs', status: 200 },
      { format: 'raw', status: 200 },
      { format: 'car', status: 200 },
    ])
    expect(gateway[0]!.bytes).toBe(content.length)
    for (const served of gateway) {
      expect(served.firstByteSeconds).toBeGreaterThanOrEqual(0)
      expect(served.seconds).toBeGreaterThanOrEqual(served.firstByteSeconds!)
    }
    expect(started()).toBe(3)
  })

  it('observer - a client that goes away mid-body: observed once, with the bytes it read', async () => {
    const { call, gateway } = setup()
    const { cid } = await uploaded(call, chacha('observer cancel', 3 * 1024 * 1024))
    // a CAR goes out block by block: many chunks
    const res = await call(`/ipfs/${cid}?format=car`)
    const reader = res.body!.getReader()
    const first = await reader.read()
    await reader.cancel()
    expect(gateway).toHaveLength(1)
    expect(gateway[0]!.bytes).toBe(first.value!.byteLength)
    expect(gateway[0]!.bytes).toBeLessThan(3 * 1024 * 1024)
  })

  it('observer - an object without the three methods is refused at construction', () => {
    const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
    const auth = createTokenVerifier({ secret: TEST_SECRET })
    const broken = { answered() {} } as unknown as HttpObserver
    expect(() => createFetchHandler(service, { auth, observer: broken })).toThrow(/observer/)
  })
})
