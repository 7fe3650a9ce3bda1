import {
  type ConformanceGateway,
  conformanceScore,
  type FixtureCar,
  openFixtureCar,
  startConformanceGateway,
} from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect } from 'vitest'

/**
 * gateway-conformance `tests/trustless_gateway_raw_test.go`, `TestTrustlessRaw`: a block by its
 * own CID. (`TestTrustlessRawRanges` draws random ranges; gateway-negotiation.test.ts covers them.)
 */
const score = conformanceScore('trustless_gateway_raw_test.go')

let gw: ConformanceGateway
let fixture: FixtureCar
beforeAll(async () => {
  gw = await startConformanceGateway()
  await gw.loadCar('gateway-raw-block.car')
  fixture = await openFixtureCar('gateway-raw-block.car')
})
afterAll(() => gw.close())

const bytes = (body: string) => new Uint8Array(Buffer.from(body, 'latin1'))
const RAW = { accept: 'application/vnd.ipld.raw' }

describe('TestTrustlessRaw', () => {
  const T = 'TestTrustlessRaw'
  score.it(T, 'GET with format=raw param returns a raw block', async () => {
    const res = await gw.get(`/ipfs/${await fixture.cid('dir')}?format=raw`)
    expect(res.status).toBe(200)
    expect(bytes(res.body)).toEqual(await fixture.rawData('dir'))
  })
  score.it(T, 'GET with application/vnd.ipld.raw header returns a raw block', async () => {
    const res = await gw.get(`/ipfs/${await fixture.cid('dir')}`, { headers: RAW })
    expect(res.status).toBe(200)
    expect(bytes(res.body)).toEqual(await fixture.rawData('dir'))
  })
  score.it(T, 'GET with application/vnd.ipld.raw header returns expected response headers', async () => {
    const ascii = await fixture.rawData('dir', 'ascii.txt')
    const res = await gw.get(`/ipfs/${await fixture.cid('dir', 'ascii.txt')}`, { headers: RAW })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/vnd.ipld.raw')
    expect(res.headers['content-length']).toBe(String(ascii.length))
    expect(res.headers['content-disposition']).toContain('attachment;')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(bytes(res.body)).toEqual(ascii)
  })
  score.it(
    T,
    'GET with application/vnd.ipld.raw header and filename param returns expected Content-Disposition header with custom filename',
    async () => {
      const res = await gw.get(`/ipfs/${await fixture.cid('dir', 'ascii.txt')}?filename=foobar.bin`, { headers: RAW })
      expect(res.status).toBe(200)
      expect(res.headers['content-disposition']).toContain('attachment;')
      expect(res.headers['content-disposition']).toContain('filename="foobar.bin')
    },
  )
  score.it(T, 'GET with application/vnd.ipld.raw header returns expected caching headers', async () => {
    const file = await fixture.cid('dir', 'ascii.txt')
    const res = await gw.get(`/ipfs/${file}`, { headers: RAW })
    expect(res.status).toBe(200)
    expect(res.headers.etag).toBeTruthy()
    expect(res.headers['x-ipfs-path']).toBe(`/ipfs/${file}`)
    expect(res.headers['x-ipfs-roots']).toContain(file.toString())
    const directives = (res.headers['cache-control'] ?? '').split(',').map((d) => d.trim())
    expect(directives).toEqual(expect.arrayContaining(['public', 'immutable']))
    const maxAge = directives.find((d) => d.startsWith('max-age='))
    expect(Number(maxAge?.slice('max-age='.length))).toBeGreaterThanOrEqual(29030400)
  })
})
