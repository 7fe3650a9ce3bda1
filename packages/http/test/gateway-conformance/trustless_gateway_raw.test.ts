import {
  type ConformanceGateway,
  conformanceScore,
  type FixtureCar,
  openFixtureCar,
  startConformanceGateway,
} from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect } from 'vitest'

/**
 * gateway-conformance `tests/trustless_gateway_raw_test.go`: a block by its own CID, and ranges of
 * it. The suite draws its ranges at random (`OnlyRandomRangeTests`); here every range of a fixed
 * spread over the block (ends, middle, one byte, the last byte) is asked, so a run is repeatable.
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

describe('TestTrustlessRawRanges', () => {
  const T = 'TestTrustlessRawRanges'
  const NAME = 'GET with application/vnd.ipld.raw with range request includes correct bytes'
  const spread = (size: number) => [
    [0, 0],
    [0, size - 1],
    [1, Math.floor(size / 2)],
    [Math.floor(size / 3), size - 2],
    [size - 1, size - 1],
  ]
  score.it(T, `${NAME} - single range`, async () => {
    const file = await fixture.cid('dir', 'ascii.txt')
    const block = await fixture.rawData('dir', 'ascii.txt')
    for (const [start, end] of spread(block.length) as [number, number][]) {
      const res = await gw.get(`/ipfs/${file}`, { headers: { ...RAW, range: `bytes=${start}-${end}` } })
      // the suite also takes a 200 with the whole block; Pinfold always answers the range
      expect(res.status).toBe(206)
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${block.length}`)
      expect(bytes(res.body)).toEqual(block.subarray(start, end + 1))
    }
  })
  score.it(T, `${NAME} - multi range`, async () => {
    const file = await fixture.cid('dir', 'ascii.txt')
    const block = await fixture.rawData('dir', 'ascii.txt')
    const ranges = spread(block.length) as [number, number][]
    for (let i = 0; i + 1 < ranges.length; i++) {
      const [first, second] = [ranges[i]!, ranges[i + 1]!]
      const header = `bytes=${first[0]}-${first[1]},${second[0]}-${second[1]}`
      const res = await gw.get(`/ipfs/${file}`, { headers: { ...RAW, range: header } })
      // of the suite's three acceptable answers, Pinfold gives the first range alone
      expect(res.status, header).toBe(206)
      expect(res.headers['content-type']).toBe('application/vnd.ipld.raw')
      expect(res.headers['content-range']).toBe(`bytes ${first[0]}-${first[1]}/${block.length}`)
      expect(bytes(res.body)).toEqual(block.subarray(first[0], first[1] + 1))
    }
  })
})
