import { chacha, type GatewayTestApi, readVerifiedCar, startGatewayApi } from '@pinfold/testing/gateway'
import { CID } from 'multiformats/cid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const RAW = 'application/vnd.ipld.raw'
const CAR = 'application/vnd.ipld.car'
const CAR_SENT = `${CAR}; version=1; order=dfs; dups=n`
/** A CIDv1 nobody uploaded (sha2-256 of nothing stored here). */
const ABSENT = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'

/**
 * Trustless and path gateway behaviours negotiated by the request: Range on raw blocks, custom
 * file names, Content-Location, Accept with q-values and CAR parameters, only-if-cached,
 * Service-Worker, and X-Ipfs-Roots along a path.
 */
describe('gateway negotiation', () => {
  let server: GatewayTestApi
  let block: string
  const bytes = chacha('negotiation', 5000)
  let site: string
  beforeAll(async () => {
    server = await startGatewayApi()
    block = (await server.upload(bytes, { network: 'public' })).cid as string
    site = await server.uploadFolder([
      { path: 'site/docs/deep/page.txt', bytes: 'deep page' },
      { path: 'site/index.html', bytes: '<p>home</p>' },
    ])
  })
  afterAll(() => server.close())

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    server.fetch(`${server.url}${path}`, { headers, method, redirect: 'manual' })

  it('raw Range - 206 with Content-Range and the exact slice, suffix ranges, 416 outside (TestTrustlessRawRanges)', async () => {
    const ranged = await get(`/ipfs/${block}?format=raw`, { range: 'bytes=10-19' })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`)
    expect(ranged.headers.get('content-length')).toBe('10')
    expect(ranged.headers.get('content-type')).toBe(RAW)
    expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(bytes.subarray(10, 20))
    const suffix = await get(`/ipfs/${block}`, { accept: RAW, range: 'bytes=-5' })
    expect(suffix.status).toBe(206)
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(bytes.subarray(-5))
    const head = await get(`/ipfs/${block}?format=raw`, { range: 'bytes=0-0' }, 'HEAD')
    expect(head.status).toBe(206)
    expect(head.headers.get('content-range')).toBe(`bytes 0-0/${bytes.length}`)
    const outside = await get(`/ipfs/${block}?format=raw`, { range: `bytes=${bytes.length}-` })
    expect(outside.status).toBe(416)
    expect(outside.headers.get('content-range')).toBe(`bytes */${bytes.length}`)
    expect(await outside.json()).toEqual({ error: expect.any(String) })
    expect((await get(`/ipfs/${block}?format=raw`)).headers.get('accept-ranges')).toBe('bytes')
  })

  it('filename - ?filename= names the raw and CAR attachments (TestTrustlessRaw)', async () => {
    const raw = await get(`/ipfs/${block}?format=raw&filename=block.bin`)
    expect(raw.headers.get('content-disposition')).toMatch(/^attachment; filename="block\.bin"/)
    const car = await get(`/ipfs/${block}?format=car&filename=${encodeURIComponent('my file.car')}`)
    expect(car.headers.get('content-disposition')).toMatch(/^attachment; filename="my file\.car"/)
    await car.arrayBuffer()
    // without one, the CID names them
    expect((await get(`/ipfs/${block}?format=raw`)).headers.get('content-disposition')).toBe(
      `attachment; filename="${block}.bin"`,
    )
  })

  it('Content-Location - sent when Accept alone chose raw or CAR, not when ?format= did', async () => {
    const raw = await get(`/ipfs/${block}`, { accept: RAW })
    expect(raw.headers.get('content-location')).toBe(`/ipfs/${block}?format=raw`)
    const car = await get(`/ipfs/${block}?dag-scope=block`, { accept: CAR })
    expect(car.headers.get('content-location')).toBe(`/ipfs/${block}?dag-scope=block&format=car`)
    await car.arrayBuffer()
    expect((await get(`/ipfs/${block}?format=raw`, { accept: RAW })).headers.get('content-location')).toBeNull()
    // a deserialized answer depends on Accept too
    expect((await get(`/ipfs/${block}`, { accept: 'text/html' })).headers.get('vary')).toBe('Accept')
  })

  it('Accept - q-values pick the best acceptable type; q=0 refuses one (trustless spec, CAR format signaling)', async () => {
    const cases: [string, string][] = [
      [`${RAW};q=0.5, ${CAR};q=0.9`, CAR_SENT],
      [`${CAR};q=0, ${RAW}`, RAW],
      [`${CAR}; version=1; order=dfs; dups=y, ${RAW};q=0.5`, `${CAR}; version=1; order=dfs; dups=y`],
      [`${CAR}; version=2, ${RAW};q=0.5`, RAW],
      [`${CAR}; version=1; order=unk`, CAR_SENT],
      [`${CAR}; version=1; order=dfs; dups=n`, CAR_SENT],
      [`text/html, ${RAW};q=0.1`, 'text/plain; charset=utf-8'],
      [`${RAW};q=0.1, */*;q=0.2`, 'text/plain; charset=utf-8'],
      [`application/vnd.ipfs.ipns-record, ${RAW};q=0.3`, RAW],
    ]
    const text = (await server.upload('plain words', { network: 'public', name: 'words.txt' })).cid as string
    for (const [accept, type] of cases) {
      const res = await get(`/ipfs/${text}`, { accept })
      expect(res.status, accept).toBe(200)
      expect(res.headers.get('content-type'), accept).toBe(type)
      await res.arrayBuffer()
    }
  })

  it('Accept - only unsupported IPLD types or CAR variants is a JSON 406; bad car-* parameters a 400', async () => {
    for (const accept of [
      'application/vnd.ipld.dag-json',
      'application/vnd.ipld.dag-cbor, application/vnd.ipfs.ipns-record',
      `${CAR}; version=2`,
      `${CAR}; dups=maybe`,
      `${CAR}; order=foo`,
      `${RAW};q=0`,
    ]) {
      const res = await get(`/ipfs/${block}`, { accept })
      expect(res.status, accept).toBe(406)
      expect(await res.json(), accept).toEqual({ error: expect.any(String) })
    }
    for (const query of ['car-dups=maybe', 'car-order=bfs', 'car-version=2']) {
      const res = await get(`/ipfs/${block}?format=car&${query}`)
      expect(res.status, query).toBe(400)
      expect(await res.json(), query).toEqual({ error: expect.any(String) })
    }
    const honoured = await get(`/ipfs/${block}?format=car&car-order=unk&car-dups=n&car-version=1`)
    expect(honoured.headers.get('content-type')).toBe(CAR_SENT)
    const { blocks } = await readVerifiedCar(new Uint8Array(await honoured.arrayBuffer()))
    expect(blocks.length).toBeGreaterThan(0)
  })

  it('dups - dups=y sends a repeated block every time the DFS walk meets it, dups=n once (TestTrustlessCarDupsAndOrder)', async () => {
    // a file of three identical leaves: one distinct leaf, linked three times by the root
    const leaf = new Uint8Array(262_144).fill(7)
    const file = (await server.upload(Buffer.concat([leaf, leaf, leaf]), { network: 'public' })).cid as string
    const count = async (accept: string, query = '') => {
      const res = await get(`/ipfs/${file}${query}`, { accept })
      const { blocks } = await readVerifiedCar(new Uint8Array(await res.arrayBuffer()))
      return { type: res.headers.get('content-type'), blocks: blocks.length }
    }
    expect(await count(`${CAR}; dups=y`)).toEqual({ type: `${CAR}; version=1; order=dfs; dups=y`, blocks: 4 })
    expect(await count(`${CAR}; dups=n`)).toEqual({ type: CAR_SENT, blocks: 2 })
    expect(await count(CAR, '?car-dups=y')).toEqual({ type: `${CAR}; version=1; order=dfs; dups=y`, blocks: 4 })
    expect(await count(`${CAR}; dups=y`, '?dag-scope=entity')).toMatchObject({ blocks: 4 })
  })

  it('only-if-cached - 412 for content the gateway does not hold, 200 as usual when it does (TestGatewayCache)', async () => {
    for (const method of ['GET', 'HEAD']) {
      const missing = await get(`/ipfs/${ABSENT}`, { 'cache-control': 'only-if-cached' }, method)
      expect(missing.status, method).toBe(412)
      const held = await get(`/ipfs/${site}/docs/deep/page.txt`, { 'cache-control': 'only-if-cached' }, method)
      expect(held.status, method).toBe(200)
      await held.arrayBuffer()
    }
    expect((await get(`/ipfs/${ABSENT}`)).status).toBe(404)
    expect((await get(`/ipfs/${ABSENT}?format=raw`, { 'cache-control': 'max-age=0, only-if-cached' })).status).toBe(412)
  })

  it('Service-Worker - registering a worker on the shared path gateway origin is a 400', async () => {
    const res = await get(`/ipfs/${block}?filename=sw.js`, { 'service-worker': 'script' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: expect.stringMatching(/service worker/i) })
  })

  it('X-Ipfs-Roots - the root, then the CID of each path segment, on deserialized, raw and CAR answers (TestGatewayCache)', async () => {
    const listing = await get(`/ipfs/${site}/docs/`)
    await listing.arrayBuffer()
    const docs = (await server.service.gateway.entry(await root(), ['docs'])).cid.toString()
    const deep = (await server.service.gateway.entry(await root(), ['docs', 'deep'])).cid.toString()
    const page = (await server.service.gateway.entry(await root(), ['docs', 'deep', 'page.txt'])).cid.toString()
    expect(listing.headers.get('x-ipfs-roots')).toBe(`${site},${docs}`)
    const file = await get(`/ipfs/${site}/docs/deep/page.txt`)
    expect(await file.text()).toBe('deep page')
    expect(file.headers.get('x-ipfs-roots')).toBe(`${site},${docs},${deep},${page}`)
    const raw = await get(`/ipfs/${site}/docs/deep/page.txt?format=raw`)
    expect(raw.headers.get('x-ipfs-roots')).toBe(`${site},${docs},${deep},${page}`)
    await raw.arrayBuffer()
    const car = await get(`/ipfs/${site}/docs/deep?format=car`)
    expect(car.headers.get('x-ipfs-roots')).toBe(`${site},${docs},${deep}`)
    await car.arrayBuffer()
    expect((await get(`/ipfs/${block}`)).headers.get('x-ipfs-roots')).toBe(block)
    expect(CID.parse(page).version).toBe(1)
  })

  it('paths - more segments than the bound is a 400, not a walk per segment', async () => {
    const res = await get(`/ipfs/${site}/${'a/'.repeat(65)}`)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: expect.stringMatching(/segments/) })
  })

  const root = () => server.service.gateway.resolve({ kind: 'public' }, site)
})
