import { chacha, type GatewayTestApi, readVerifiedCar, startGatewayApi } from '@pinfold/testing/gateway'
import { CID } from 'multiformats/cid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer())

describe('public gateway', () => {
  let server: GatewayTestApi
  // 3 chunks of 256 KiB plus a tail: a two-level DAG under v1 and v0
  const big = chacha('gateway-big', 262_144 * 3 + 1_000)
  const cids: Record<string, string> = {}
  let privateCid: string

  beforeAll(async () => {
    server = await startGatewayApi()
    for (const version of ['v1', 'v0', 'unixfs-v1-2025'] as const) {
      cids[version] = (await server.upload(big, { network: 'public', cid_version: version, name: 'big.bin' }))
        .cid as string
    }
    cids.small = (await server.upload('hello gateway\n', { network: 'public', name: 'hello.txt' })).cid as string
    privateCid = (await server.upload(chacha('private-only', 5000), { network: 'private' })).cid as string
  })
  afterAll(() => server.close())

  it('GET /ipfs/{cid} - serves the exact bytes with immutable caching and IPFS headers', async () => {
    for (const version of ['v1', 'v0', 'unixfs-v1-2025']) {
      const res = await server.fetch(`${server.url}/ipfs/${cids[version]}`)
      expect(res.status).toBe(200)
      expect(Buffer.compare(Buffer.from(await bytesOf(res)), Buffer.from(big))).toBe(0)
      expect(res.headers.get('cache-control')).toBe('public, max-age=29030400, immutable')
      expect(res.headers.get('etag')).toBe(`"${cids[version]}"`)
      expect(res.headers.get('x-ipfs-path')).toBe(`/ipfs/${cids[version]}`)
      expect(res.headers.get('x-ipfs-roots')).toBe(cids[version])
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('content-security-policy')).toBe('sandbox')
      expect(res.headers.get('content-length')).toBe(String(big.length))
    }
  })

  it('GET /ipfs/{cid} - a CID held only privately is a 404 in every format, its bytes never leave', async () => {
    for (const query of ['', '?format=raw', '?format=car']) {
      const res = await server.fetch(`${server.url}/ipfs/${privateCid}${query}`)
      expect(res.status, query).toBe(404)
      const text = await res.text()
      expect(text).not.toContain('\u0000')
    }
    const head = await server.fetch(`${server.url}/ipfs/${privateCid}`, { method: 'HEAD' })
    expect(head.status).toBe(404)
  })

  it('GET /ipfs/{cid} - Range gives 206 with the exact slice; suffix and open ranges; 416 outside', async () => {
    const url = `${server.url}/ipfs/${cids.v1}`
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 1],
      ['bytes=262140-262150', 262_140, 11],
      [`bytes=${big.length - 10}-`, big.length - 10, 10],
      ['bytes=-25', big.length - 25, 25],
      [`bytes=700000-${big.length + 50}`, 700_000, big.length - 700_000],
    ]
    for (const [range, offset, length] of cases) {
      const res = await server.fetch(url, { headers: { range } })
      expect(res.status, range).toBe(206)
      expect(res.headers.get('content-range')).toBe(`bytes ${offset}-${offset + length - 1}/${big.length}`)
      const body = await bytesOf(res)
      expect(Buffer.compare(Buffer.from(body), Buffer.from(big.subarray(offset, offset + length))), range).toBe(0)
    }
    const outside = await server.fetch(url, { headers: { range: `bytes=${big.length}-` } })
    expect(outside.status).toBe(416)
    expect(outside.headers.get('content-range')).toBe(`bytes */${big.length}`)
  })

  it('GET /ipfs/{cid} - If-None-Match with the ETag answers 304 without a body', async () => {
    const res = await server.fetch(`${server.url}/ipfs/${cids.small}`, {
      headers: { 'if-none-match': `"${cids.small}"` },
    })
    expect(res.status).toBe(304)
    expect(await res.text()).toBe('')
    const other = await server.fetch(`${server.url}/ipfs/${cids.small}`, {
      headers: { 'if-none-match': '"something-else"' },
    })
    expect(other.status).toBe(200)
  })

  it('GET /ipfs/{cid} - Content-Type sniffed or from ?filename, Content-Disposition from ?filename and ?download', async () => {
    const sniffed = await server.fetch(`${server.url}/ipfs/${cids.small}`)
    expect(sniffed.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(sniffed.headers.get('content-disposition')).toBeNull()
    const named = await server.fetch(`${server.url}/ipfs/${cids.small}?filename=notes.json`)
    expect(named.headers.get('content-type')).toBe('application/json')
    expect(named.headers.get('content-disposition')).toBe(`inline; filename="notes.json"; filename*=UTF-8''notes.json`)
    const download = await server.fetch(`${server.url}/ipfs/${cids.small}?filename=r%C3%A9sum%C3%A9.txt&download=true`)
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
    )
    const binary = await server.fetch(`${server.url}/ipfs/${cids.v1}`)
    expect(binary.headers.get('content-type')).toBe('application/octet-stream')
    await binary.body?.cancel()
  })

  it('HEAD /ipfs/{cid} - headers and length without a body', async () => {
    const res = await server.fetch(`${server.url}/ipfs/${cids.v1}`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(String(big.length))
    expect(await res.text()).toBe('')
  })

  it('GET /ipfs/{cid} - a bad CID is a 400, an unknown one a 404, a path into a file a 404', async () => {
    expect((await server.fetch(`${server.url}/ipfs/not-a-cid`)).status).toBe(400)
    expect(
      (await server.fetch(`${server.url}/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`)).status,
    ).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${cids.small}/inner.txt`)).status).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${cids.small}?format=dag-pb`)).status).toBe(400)
    // a format the gateway serves, but not for this block's codec (no conversions)
    expect((await server.fetch(`${server.url}/ipfs/${cids.small}?format=dag-json`)).status).toBe(406)
  })

  it('GET /ipfs/{cid}?format=raw - the exact root block, verifiable, with trustless headers', async () => {
    for (const [query, headers] of [
      ['?format=raw', {}],
      ['', { accept: 'application/vnd.ipld.raw' }],
    ] as const) {
      const res = await server.fetch(`${server.url}/ipfs/${cids.small}${query}`, { headers })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/vnd.ipld.raw')
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${cids.small}.bin"`)
      expect(res.headers.get('etag')).toBe(`"${cids.small}.raw"`)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('cache-control')).toContain('immutable')
      // a single raw-leaf block: its bytes are the file
      expect(Buffer.from(await bytesOf(res)).toString()).toBe('hello gateway\n')
    }
    const root = await server.fetch(`${server.url}/ipfs/${cids.v0}?format=raw`)
    const { createHash } = await import('node:crypto')
    const digest = createHash('sha256')
      .update(await bytesOf(root))
      .digest()
    expect(Buffer.compare(digest, Buffer.from(CID.parse(cids.v0!).multihash.digest))).toBe(0)
  })

  it('GET /ipfs/bafkqaaa?format=raw - the identity probe answers 200 with an empty body', async () => {
    const res = await server.fetch(`${server.url}/ipfs/bafkqaaa?format=raw`)
    expect(res.status).toBe(200)
    expect((await bytesOf(res)).length).toBe(0)
  })

  it('GET /ipfs/{cid}?format=car - every block re-hashes, order is root-first DFS, the file reassembles', async () => {
    for (const version of ['v1', 'v0', 'unixfs-v1-2025']) {
      const res = await server.fetch(`${server.url}/ipfs/${cids[version]}?format=car`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/vnd.ipld.car; version=1; order=dfs; dups=n')
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${cids[version]}.car"`)
      expect(res.headers.get('etag')).toMatch(/^"[^"]+\.car\.[^"]+"$/)
      const car = await readVerifiedCar(await bytesOf(res))
      expect(car.roots.map(String)).toEqual([cids[version]])
      expect(car.blocks[0]!.cid.toString()).toBe(cids[version])
      expect(new Set(car.blocks.map((b) => b.cid.toString())).size).toBe(car.blocks.length)
      expect(Buffer.compare(Buffer.from(await car.reassemble()), Buffer.from(big)), version).toBe(0)
    }
    const viaAccept = await server.fetch(`${server.url}/ipfs/${cids.v1}`, {
      headers: { accept: 'application/vnd.ipld.car' },
    })
    expect(viaAccept.headers.get('content-location')).toBe(`/ipfs/${cids.v1}?format=car`)
    expect((await readVerifiedCar(await bytesOf(viaAccept))).blocks.length).toBeGreaterThan(1)
  })

  it('GET /ipfs/{cid}?format=car&dag-scope=block - only the root block', async () => {
    const res = await server.fetch(`${server.url}/ipfs/${cids.v1}?format=car&dag-scope=block`)
    const car = await readVerifiedCar(await bytesOf(res))
    expect(car.blocks.map((b) => b.cid.toString())).toEqual([cids.v1])
  })

  it('GET /ipfs/{cid}?format=car&entity-bytes - the minimal blocks for the range; the range reassembles', async () => {
    const full = await readVerifiedCar(await bytesOf(await server.fetch(`${server.url}/ipfs/${cids.v0}?format=car`)))
    const res = await server.fetch(`${server.url}/ipfs/${cids.v0}?format=car&entity-bytes=262200:262300`)
    expect(res.status).toBe(200)
    const car = await readVerifiedCar(await bytesOf(res))
    // root + the one leaf holding bytes 262200..262300
    expect(car.blocks.length).toBe(2)
    expect(car.blocks.length).toBeLessThan(full.blocks.length)
    const slice = await car.reassemble(262_200, 101)
    expect(Buffer.compare(Buffer.from(slice), Buffer.from(big.subarray(262_200, 262_301)))).toBe(0)
    const tail = await readVerifiedCar(
      await bytesOf(await server.fetch(`${server.url}/ipfs/${cids.v1}?format=car&entity-bytes=-100:*`)),
    )
    expect(tail.blocks.length).toBe(2)
    const etagA = (await server.fetch(`${server.url}/ipfs/${cids.v1}?format=car&entity-bytes=0:10`)).headers.get('etag')
    const etagB = (await server.fetch(`${server.url}/ipfs/${cids.v1}?format=car&entity-bytes=0:20`)).headers.get('etag')
    expect(etagA).not.toBe(etagB)
    expect((await server.fetch(`${server.url}/ipfs/${cids.v1}?format=car&entity-bytes=nope`)).status).toBe(400)
    expect((await server.fetch(`${server.url}/ipfs/${cids.v1}?format=car&dag-scope=nope`)).status).toBe(400)
  })
})
