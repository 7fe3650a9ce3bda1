import { type ConformanceGateway, startConformanceGateway } from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { humanSize } from '../src/gateway/directory-listing.js'

/**
 * What the gateway answers browsers beyond the conformance suite's checks: error pages, listings
 * whose names hold markup, types of nameless files and symlinks.
 */
describe('gateway pages', () => {
  let gw: ConformanceGateway
  let symlinkDir: string
  beforeAll(async () => {
    gw = await startConformanceGateway()
    symlinkDir = await gw.loadCar('path_gateway_unixfs/symlink.car')
  })
  afterAll(() => gw.close())

  it('errors - JSON for API clients, an HTML page with the same status and words for browsers (Accept: text/html)', async () => {
    const api = await gw.get('/ipfs/QmInvalidCID/x')
    expect(api.status).toBe(400)
    expect(api.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(api.body).error).toMatch(
      /^invalid path "\/ipfs\/QmInvalidCID\/x": "QmInvalidCID" is not a valid CID/,
    )
    const browser = await gw.get('/ipfs/QmInvalidCID/x', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    })
    expect(browser.status).toBe(400)
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(browser.headers['content-security-policy']).toBe('sandbox')
    expect(browser.body).toContain('invalid path "/ipfs/QmInvalidCID/x"')
    // markup in the path is text on the page, never markup
    const markup = await gw.get('/ipfs/%3Cscript%3E', { headers: { accept: 'text/html' } })
    expect(markup.body).not.toContain('<script>')
    expect(markup.body).toContain('&#60;script&#62;')
    // refusing HTML (q=0) keeps the JSON
    const refused = await gw.get('/ipfs/QmInvalidCID', { headers: { accept: 'text/html;q=0, application/json' } })
    expect(refused.headers['content-type']).toMatch(/^application\/json/)
    // a 404 of content not held, and the API's own errors, the same way
    const missing = await gw.get('/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', {
      headers: { accept: 'text/html' },
    })
    expect(missing.status).toBe(404)
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8')
    const apiRoute = await gw.get('/v3/files/nope', { headers: { accept: 'text/html' } })
    expect(apiRoute.headers['content-type']).toMatch(/^application\/json/)
  })

  it('listing - names with markup are escaped; sizes are human (SI, as Kubo prints them)', async () => {
    const dir = await gw.uploadFolder([
      { path: 'd/<img src=x onerror=alert(1)>.txt', bytes: 'x'.repeat(1500) },
      { path: "d/a'b&c.txt", bytes: 'y' },
    ])
    const res = await gw.get(`/ipfs/${dir}/`)
    expect(res.status).toBe(200)
    expect(res.headers['cache-control']).toBe('public, max-age=604800, stale-while-revalidate=2678400')
    expect(res.body).not.toContain('<img')
    expect(res.body).toContain('&#60;img src=x onerror=alert(1)&#62;.txt</a>')
    // a quote cannot end the attribute it is in
    expect(res.body).toContain(`href="/ipfs/${dir}/a&#39;b%26c.txt">a'b&#38;c.txt</a>`)
    expect(res.body).toMatch(/<td>1\.5 kB<\/td>/)
    expect([0, 31, 999, 1000, 1049, 12_345, 123_456_789].map(humanSize)).toEqual([
      '0 B',
      '31 B',
      '999 B',
      '1 kB',
      '1 kB',
      '12 kB',
      '123 MB',
    ])
  })

  it('types - a nameless JSON document is application/json; JSON-looking text that does not parse, or past the sniffed bytes, stays text', async () => {
    const json = (await gw.upload('{ "a": [1, 2] }\n', { network: 'public', name: 'noext' })).cid
    const res = await gw.get(`/ipfs/${json}`)
    expect(res.headers['content-type']).toBe('application/json')
    const broken = (await gw.upload('{ "a": ', { network: 'public', name: 'noext2' })).cid
    expect((await gw.get(`/ipfs/${broken}`)).headers['content-type']).toBe('text/plain; charset=utf-8')
    const big = (await gw.upload(JSON.stringify({ a: 'z'.repeat(5000) }), { network: 'public', name: 'noext3' })).cid
    expect((await gw.get(`/ipfs/${big}`)).headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  it('symlinks - answered with their target path, typed inode/symlink, never followed (TestGatewaySymlink)', async () => {
    const res = await gw.get(`/ipfs/${symlinkDir}/bar`)
    expect(res.status).toBe(200)
    expect(res.body).toBe('foo')
    expect(res.headers['content-type']).toBe('inode/symlink')
    expect(res.headers['content-length']).toBe('3')
    const range = await gw.get(`/ipfs/${symlinkDir}/bar`, { headers: { range: 'bytes=1-' } })
    expect(range.status).toBe(206)
    expect(range.body).toBe('oo')
  })
})
