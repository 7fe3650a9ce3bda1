import { type GatewayTestApi, requestOnHost, startGatewayApi } from '@pinfold/testing/gateway'
import { CID } from 'multiformats/cid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The subdomain gateway (TestGatewaySubdomains): `{cidv1}.ipfs.{host}` serves the CID at the root
 * of an origin of its own, where HTML and scripts run unsandboxed; the path gateway keeps its
 * sandbox. Requests are addressed to the host under test (in process, the URL's host is the Host).
 */
describe('subdomain gateway', () => {
  let server: GatewayTestApi
  let site: string
  let page: string
  beforeAll(async () => {
    server = await startGatewayApi({ publicUrl: 'http://api.pinfold.example', subdomainHost: 'gw.example' })
    site = await server.uploadFolder([
      { path: 'site/index.html', bytes: '<script>document.title = "mine"</script>' },
      { path: 'site/assets/app.js', bytes: 'console.log(1)' },
    ])
    page = (await server.upload('<h1>alone</h1>', { network: 'public', name: 'page.html' })).cid as string
  })
  afterAll(() => server.close())

  const onHost = (host: string, path: string, headers?: Record<string, string>) =>
    requestOnHost(server, host, path, { headers })

  it('{cid}.ipfs.{host} - the CID is the origin root: index.html as text/html, no sandbox, sub-paths', async () => {
    const root = await onHost(`${site}.ipfs.gw.example`, '/')
    expect(root.status).toBe(200)
    expect(root.body).toBe('<script>document.title = "mine"</script>')
    expect(root.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(root.headers['content-security-policy']).toBeUndefined()
    expect(root.headers['x-ipfs-path']).toBe(`/ipfs/${site}/`)
    const script = await onHost(`${site}.ipfs.gw.example:8080`, '/assets/app.js')
    expect(script.status).toBe(200)
    expect(script.body).toBe('console.log(1)')
    expect(script.headers['content-security-policy']).toBeUndefined()
    // a directory without its slash redirects within the origin
    const dir = await onHost(`${site}.ipfs.gw.example`, '/assets')
    expect(dir.status).toBe(301)
    expect(dir.headers.location).toBe('/assets/')
    expect((await onHost(`${site}.ipfs.gw.example`, '/missing.txt')).status).toBe(404)
    // its own origin may register a service worker
    expect((await onHost(`${site}.ipfs.gw.example`, '/assets/app.js', { 'service-worker': 'script' })).status).toBe(200)
  })

  it('path gateway - on the API host the same content stays sandboxed on the shared origin, CIDv0 and v1 alike, no redirect', async () => {
    const shared = await onHost('api.pinfold.example', `/ipfs/${site}/`)
    expect(shared.status).toBe(200)
    expect(shared.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(shared.headers['content-security-policy']).toBe('sandbox')
    const v0 = CID.parse(site).toV0().toString()
    const legacy = await onHost('api.pinfold.example', `/ipfs/${v0}/`)
    expect(legacy.status).toBe(200)
    expect(legacy.headers['content-security-policy']).toBe('sandbox')
    const api = await onHost('api.pinfold.example', `/ipfs/${page}`)
    expect(api.status).toBe(200)
    expect(api.headers['content-security-policy']).toBe('sandbox')
    const sub = await onHost(`${page}.ipfs.gw.example`, '/')
    expect(sub.body).toBe('<h1>alone</h1>')
    expect(sub.headers['content-security-policy']).toBeUndefined()
  })

  it("path gateway - on the subdomain host, a browser is redirected to the CID's own origin; trustless requests are served (TestGatewaySubdomains)", async () => {
    const v0 = CID.parse(site).toV0().toString()
    for (const cid of [site, v0]) {
      const res = await onHost('gw.example:8080', `/ipfs/${cid}/assets/app.js?x=1`)
      expect(res.status, cid).toBe(301)
      expect(res.headers.location, cid).toBe(`http://${site}.ipfs.gw.example:8080/assets/app.js?x=1`)
    }
    const raw = await onHost('gw.example', `/ipfs/${site}?format=raw`)
    expect(raw.status).toBe(200)
    expect(raw.headers['content-type']).toBe('application/vnd.ipld.raw')
    const car = await onHost('gw.example', `/ipfs/${page}`, { accept: 'application/vnd.ipld.car' })
    expect(car.status).toBe(200)
    // no CID: the path gateway's own error, worded as path gateways word it
    const bad = await onHost('gw.example', '/ipfs/not-a-cid/')
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error).toMatch(/^invalid path "\/ipfs\/not-a-cid\/"/)
  })

  it('labels - anything but a CIDv1 in base32 or base36 is a JSON 400; a CID too long for a DNS label is refused (TestGatewaySubdomains)', async () => {
    const v0 = CID.parse(site).toV0().toString()
    for (const label of [v0, v0.toLowerCase(), 'not-a-cid', `${page}.extra`, 'bafy']) {
      const res = await onHost(`${label}.ipfs.gw.example`, '/')
      expect(res.status, label).toBe(400)
      expect(JSON.parse(res.body), label).toEqual({ error: expect.stringMatching(/CIDv1 in base32 or base36/) })
    }
    const base36 = CID.parse(page).toString((await import('multiformats/bases/base36')).base36)
    const inBase36 = await onHost(`${base36}.ipfs.gw.example`, '/')
    expect(inBase36.status).toBe(200)
    expect(inBase36.body).toBe('<h1>alone</h1>')
    // sha2-512: 107 characters in base32, 100 in base36, no label holds it
    const long = CID.createV1(0x55, {
      code: 0x13,
      size: 64,
      digest: new Uint8Array(64),
      bytes: new Uint8Array([0x13, 0x40, ...new Uint8Array(64)]),
    })
    const tooLong = await onHost(`${long}.ipfs.gw.example`, '/')
    expect(tooLong.status).toBe(400)
    expect(JSON.parse(tooLong.body).error).toMatch(/^CID incompatible with DNS label length limit of 63/)
    const redirect = await onHost('gw.example', `/ipfs/${long}`)
    expect(redirect.status).toBe(400)
    expect(JSON.parse(redirect.body).error).toMatch(/^CID incompatible with DNS label length limit of 63/)
    // a browser gets the same error as a page
    const page400 = await onHost(`${long}.ipfs.gw.example`, '/', { accept: 'text/html,application/xhtml+xml' })
    expect(page400.status).toBe(400)
    expect(page400.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page400.body).toContain('CID incompatible with DNS label length limit of 63')
  })

  it('protocol handler - /ipfs/?uri=ipfs://{cid}/{path} redirects to the content path; other schemes are a 400', async () => {
    const res = await onHost('api.pinfold.example', `/ipfs/?uri=${encodeURIComponent(`ipfs://${site}/assets/app.js`)}`)
    expect(res.status).toBe(301)
    expect(res.headers.location).toBe(`/ipfs/${site}/assets/app.js`)
    const odd = await onHost('api.pinfold.example', `/ipfs/?uri=${encodeURIComponent(`ipfs://${site}/a b/é`)}`)
    expect(odd.headers.location).toBe(`/ipfs/${site}/a%20b/%C3%A9`)
    const bad = await onHost('api.pinfold.example', `/ipfs/?uri=${encodeURIComponent('https://evil.example/')}`)
    expect(bad.status).toBe(400)
  })

  it('methods - only GET and HEAD', async () => {
    const res = await requestOnHost(server, `${page}.ipfs.gw.example`, '/', { method: 'DELETE' })
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
  })
})
