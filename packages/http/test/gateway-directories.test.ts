import { CarBlockIterator } from '@ipld/car/iterator'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { folderForm } from '@pinfold/testing/uploads'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

describe('gateway: directories from folder uploads', () => {
  let server: TestApi
  let cid: string
  const site = [
    { path: 'site/index.html', bytes: '<h1>hello</h1>', type: 'text/html' },
    { path: 'site/docs/guide.txt', bytes: 'read me\n'.repeat(1000) },
    { path: 'site/docs/data.json', bytes: '{"a":1}' },
  ]
  beforeAll(async () => {
    server = await startTestApi()
    const res = await server.api('/v3/files', { method: 'POST', body: folderForm(site, { network: 'public' }) })
    cid = ((await res.json()) as { data: { cid: string } }).data.cid
  })
  afterAll(() => server.close())

  it('paths - a file inside the directory is served with its bytes, type and ranges', async () => {
    const res = await server.fetch(`${server.url}/ipfs/${cid}/docs/guide.txt`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await res.text()).toBe(site[1]!.bytes)
    const ranged = await server.fetch(`${server.url}/ipfs/${cid}/docs/guide.txt`, { headers: { range: 'bytes=8-15' } })
    expect(ranged.status).toBe(206)
    expect(await ranged.text()).toBe('read me\n')
    expect((await server.fetch(`${server.url}/ipfs/${cid}/docs/missing.txt`)).status).toBe(404)
  })

  it('directories - index.html is served for the root, a listing for a directory without one', async () => {
    const noSlash = await server.fetch(`${server.url}/ipfs/${cid}`, { redirect: 'manual' })
    expect(noSlash.status).toBe(301)
    expect(noSlash.headers.get('location')).toMatch(new RegExp(`/ipfs/${cid}/$`))
    const root = await server.fetch(`${server.url}/ipfs/${cid}/`)
    expect(root.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await root.text()).toBe('<h1>hello</h1>')
    expect(root.headers.get('content-security-policy')).toMatch(/sandbox/)
    const listing = await server.fetch(`${server.url}/ipfs/${cid}/docs/`)
    expect(listing.status).toBe(200)
    const html = await listing.text()
    expect(html).toContain('guide.txt')
    expect(html).toContain('data.json')
  })

  it('trustless - the CAR of a directory holds every block, each hashing to its CID', async () => {
    const res = await server.fetch(`${server.url}/ipfs/${cid}?format=car`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.ipld\.car; version=1/)
    const bytes = new Uint8Array(await res.arrayBuffer())
    const blocks = await CarBlockIterator.fromIterable(
      (async function* () {
        yield bytes
      })(),
    )
    let count = 0
    for await (const block of blocks) {
      const digest = await sha256.digest(block.bytes)
      expect(Buffer.from(digest.digest).equals(Buffer.from(block.cid.multihash.digest))).toBe(true)
      count++
    }
    // the root, the docs directory, three single-leaf files
    expect(count).toBe(5)
  })

  it('privacy - a folder uploaded privately is never served at /ipfs/', async () => {
    const res = await server.api('/v3/files', {
      method: 'POST',
      body: folderForm([{ path: 'secret/a.txt', bytes: `secret ${Math.random()}` }], { network: 'private' }),
    })
    const secret = ((await res.json()) as { data: { cid: string } }).data.cid
    expect((await server.fetch(`${server.url}/ipfs/${secret}/a.txt`)).status).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${secret}?format=car`)).status).toBe(404)
  })
})
