import type { ConformanceGateway } from '@pinfold/testing/gateway-conformance'
import { startConformanceGateway } from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const GATEWAY_DOMAIN = 'gw.pinfold.test'

/**
 * Websites on the gateway beyond what the conformance suite checks: DNSLink on a dedicated name,
 * the tenant boundary, which hosts cause DNS lookups at all, and `_redirects` staying off the
 * shared path gateway (one site's rules must never act for another's on a common origin).
 */
describe('gateway websites', () => {
  let gw: ConformanceGateway
  let spa: string
  const txt = new Map<string, string[][]>()
  const lookups: string[] = []
  beforeAll(async () => {
    gw = await startConformanceGateway({
      publicHost: true,
      gatewayDomain: GATEWAY_DOMAIN,
      resolveTxt: async (name) => {
        lookups.push(name)
        const records = txt.get(name)
        if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
        return records
      },
    })
    spa = await gw.loadCar('redirects_file/redirects-spa.car')
  })
  afterAll(() => gw.close())

  const claimName = async (name: string, org?: string) => {
    const res = await gw.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name }), org })
    expect(res.status).toBe(201)
    return `${name}.${GATEWAY_DOMAIN}`
  }

  it('a dedicated name with a DNSLink record serves the site, unsandboxed, its /ipfs/ paths still sandboxed', async () => {
    const host = await claimName('shop')
    txt.set(`_dnslink.${host}`, [[`dnslink=/ipfs/${spa}`]])
    const page = await gw.onHost(host, '/')
    expect(page.status).toBe(200)
    expect(page.body).toBe('hello world\n')
    // the host is this one site's origin
    expect(page.headers['content-security-policy']).toBeUndefined()
    // a client-side route of the single-page app: its `/* /index.html 200` rule
    const route = await gw.onHost(host, '/cart/42')
    expect(route.status).toBe(200)
    expect(route.body).toBe('hello world\n')
    const byCid = await gw.onHost(host, `/ipfs/${spa}/index.html`)
    expect(byCid.status).toBe(200)
    expect(byCid.headers['content-security-policy']).toBe('sandbox')
  })

  it("a DNSLink record naming content the tenant does not hold publicly is a 404: the tenant's own content only", async () => {
    const host = await claimName('other', 'tenant-b')
    txt.set(`_dnslink.${host}`, [[`dnslink=/ipfs/${spa}`]])
    expect((await gw.onHost(host, '/')).status).toBe(404)
  })

  it('a host that is no verified domain of a tenant causes no DNS lookup, whatever the client names', async () => {
    const before = lookups.length
    for (const host of ['attacker.example', 'localhost', '169.254.169.254', `unclaimed.${GATEWAY_DOMAIN}`]) {
      expect((await gw.onHost(host, '/index.html')).status).toBeGreaterThanOrEqual(400)
    }
    expect(lookups.slice(before).filter((name) => name.startsWith('_dnslink.'))).toEqual([])
  })

  it('_redirects never applies on the shared path gateway', async () => {
    const res = await gw.get(`/ipfs/${spa}/missing-page`, { headers: { accept: 'text/html' } })
    expect(res.status).toBe(404)
  })

  it('a DNSLink record with a sub-path serves that directory, and its _redirects', async () => {
    const root = await gw.loadCar('redirects_file/redirects.car')
    const host = await claimName('docs')
    txt.set(`_dnslink.${host}`, [[`dnslink=/ipfs/${root}/examples`]])
    const one = await gw.onHost(host, '/redirect-one')
    expect(one.status).toBe(301)
    expect(one.headers.location).toBe('/one.html')
    // the request's query travels with the redirect
    expect((await gw.onHost(host, '/redirect-one?lang=en')).headers.location).toBe('/one.html?lang=en')
    expect((await gw.onHost(host, '/one.html')).status).toBe(200)
  })
})
