import {
  type ConformanceGateway,
  conformanceScore,
  type FixtureCar,
  openFixtureCar,
  startConformanceGateway,
} from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect } from 'vitest'

/** gateway-conformance `tests/path_gateway_raw_test.go`: raw blocks by content path. */
const score = conformanceScore('path_gateway_raw_test.go')

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

/** The suite's check: public, immutable, and max-age of at least 29030400. */
function expectImmutable(cacheControl: string | undefined) {
  const directives = new Map(
    (cacheControl ?? '').split(',').map((d) => {
      const [name, value] = d.trim().split('=')
      return [name, value] as const
    }),
  )
  expect(directives.has('public')).toBe(true)
  expect(directives.has('immutable')).toBe(true)
  expect(Number(directives.get('max-age'))).toBeGreaterThanOrEqual(29030400)
}

describe('TestGatewayBlock', () => {
  const T = 'TestGatewayBlock'
  score.it(T, 'GET with format=raw param returns a raw block', async () => {
    const res = await gw.get(`/ipfs/${fixture.root}/dir?format=raw`)
    expect(res.status).toBe(200)
    expect(bytes(res.body)).toEqual(await fixture.rawData('dir'))
  })
  score.it(T, 'GET with application/vnd.ipld.raw header returns a raw block', async () => {
    const res = await gw.get(`/ipfs/${fixture.root}/dir`, { headers: RAW })
    expect(res.status).toBe(200)
    expect(bytes(res.body)).toEqual(await fixture.rawData('dir'))
  })
  score.it(T, 'GET with application/vnd.ipld.raw with single range request includes correct bytes', async () => {
    const res = await gw.get(`/ipfs/${fixture.root}/dir`, { headers: { ...RAW, range: 'bytes=6-16' } })
    expect(res.status).toBe(206)
    expect(res.headers['content-type']).toBe('application/vnd.ipld.raw')
    expect(res.headers['content-range']).toBe('bytes 6-16/57')
    expect(bytes(res.body)).toEqual((await fixture.rawData('dir')).subarray(6, 17))
  })
  score.it(T, 'GET with application/vnd.ipld.raw header returns expected response headers', async () => {
    const ascii = await fixture.rawData('dir', 'ascii.txt')
    const res = await gw.get(`/ipfs/${fixture.root}/dir/ascii.txt`, { headers: RAW })
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
      const res = await gw.get(`/ipfs/${fixture.root}/dir/ascii.txt?filename=foobar.bin`, { headers: RAW })
      expect(res.status).toBe(200)
      expect(res.headers['content-disposition']).toContain('attachment;')
      expect(res.headers['content-disposition']).toContain('filename="foobar.bin')
    },
  )
  score.it(T, 'GET with application/vnd.ipld.raw header returns expected caching headers', async () => {
    const res = await gw.get(`/ipfs/${fixture.root}/dir/ascii.txt`, { headers: RAW })
    expect(res.status).toBe(200)
    expect(res.headers.etag).toBeTruthy()
    expect(res.headers['x-ipfs-path']).toBe(`/ipfs/${fixture.root}/dir/ascii.txt`)
    expect(res.headers['x-ipfs-roots']).toContain(fixture.root.toString())
    expectImmutable(res.headers['cache-control'])
  })
})
