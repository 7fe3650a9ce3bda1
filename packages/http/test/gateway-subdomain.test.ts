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

  it('path gateway - the same content stays sandboxed on the shared origin, CIDv0 and v1 alike, no redirect', async () => {
    const shared = await onHost('gw.example', `/ipfs/${site}/`)
    expect(shared.status).toBe(200)
    expect(shared.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(shared.headers['content-security-policy']).toBe('sandbox')
    const v0 = CID.parse(site).toV0().toString()
    const legacy = await onHost('gw.example', `/ipfs/${v0}/`)
    expect(legacy.status).toBe(200)
    expect(legacy.headers['content-security-policy']).toBe('sandbox')
    const api = await onHost('api.pinfold.example', `/ipfs/${page}`)
    expect(api.status).toBe(200)
    expect(api.headers['content-security-policy']).toBe('sandbox')
    const sub = await onHost(`${page}.ipfs.gw.example`, '/')
    expect(sub.body).toBe('<h1>alone</h1>')
    expect(sub.headers['content-security-policy']).toBeUndefined()
  })

  it('labels - anything but a CIDv1 in base32 is a JSON 400', async () => {
    const v0 = CID.parse(site).toV0().toString()
    const base36 = CID.parse(page).toString((await import('multiformats/bases/base36')).base36)
    for (const label of [v0, v0.toLowerCase(), base36, 'not-a-cid', `${page}.extra`, 'bafy']) {
      const res = await onHost(`${label}.ipfs.gw.example`, '/')
      expect(res.status, label).toBe(400)
      expect(JSON.parse(res.body), label).toEqual({ error: expect.stringMatching(/CIDv1 in base32/) })
    }
  })

  it('methods - only GET and HEAD', async () => {
    const res = await requestOnHost(server, `${page}.ipfs.gw.example`, '/', { method: 'DELETE' })
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
  })
})
