import { type GatewayTestApi, requestOnHost, startGatewayApi } from '@pinfold/testing/gateway'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const GATEWAY_DOMAIN = 'gw.pinfold.test'
const host = (name: string) => `${name}.${GATEWAY_DOMAIN}`

interface WireDomain {
  id: string
  domain: string
  status: string
  verification: { type: string; name: string; value: string } | null
}

/**
 * Dedicated gateways: `{name}.{PINFOLD_GATEWAY_DOMAIN}`, claimed per tenant, the same records and
 * routing as verified custom domains; the tenant's swaps apply there and its signed links open
 * there, and nowhere else.
 */
describe('dedicated gateways', () => {
  let server: GatewayTestApi
  const txt = new Map<string, string[][]>()
  beforeAll(async () => {
    server = await startGatewayApi({
      publicHost: true,
      gatewayDomain: GATEWAY_DOMAIN,
      resolveTxt: async (name) => txt.get(name) ?? [],
    })
  })
  afterAll(() => server.close())

  const claim = async (body: Record<string, unknown>, org?: string) => {
    const res = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify(body), org })
    return { status: res.status, body: (await res.json()) as { data: WireDomain; error?: string } }
  }
  const link = async (url: string, org?: string) => {
    const res = await server.api('/v3/files/private/download_link', {
      method: 'POST',
      body: JSON.stringify({ url, expires: 60 }),
      org,
    })
    return { status: res.status, body: (await res.json()) as { data: string; error?: string } }
  }

  it('a name is claimed active at once, by one tenant; bad names and API paths are refused', async () => {
    const created = await claim({ name: 'acme' })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ domain: host('acme'), status: 'active', verification: null })
    expect((await claim({ name: 'ACME' }, 'tenant-b')).status).toBe(409)
    // the full host name is the same claim
    expect((await claim({ domain: host('acme') }, 'tenant-b')).status).toBe(409)
    expect((await claim({ domain: host('acme-two') })).body.data).toMatchObject({ status: 'active' })
    for (const bad of [
      { name: 'a.b' },
      { name: '' },
      { domain: `a.b.${GATEWAY_DOMAIN}` },
      {},
      { name: 'x', domain: 'y.com' },
    ]) {
      const res = await claim(bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.error).toEqual(expect.any(String))
    }
    // a gateway host is a gateway only: no API there, and an unclaimed name is nobody's
    expect((await requestOnHost(server, host('acme'), '/v3/files/public')).status).toBe(404)
    const file = (await server.upload('on acme', { network: 'public' })).cid as string
    expect((await requestOnHost(server, host('acme'), `/ipfs/${file}`)).body).toBe('on acme')
    const unclaimed = await requestOnHost(server, host('nobody'), `/ipfs/${file}`)
    expect(unclaimed.status).toBe(404)
    expect(JSON.parse(unclaimed.body)).toEqual({ error: expect.stringContaining(host('nobody')) })
  })

  it('concurrent claims of one name by five tenants: exactly one wins', async () => {
    const results = await Promise.all(['t1', 't2', 't3', 't4', 't5'].map((org) => claim({ name: 'contested' }, org)))
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409])
  })

  it("tenant isolation: each host serves its tenant's public files with its swaps, never another's", async () => {
    expect((await claim({ name: 'bee' }, 'tenant-b')).status).toBe(201)
    const original = (await server.upload('shared original', { network: 'public' })).cid as string
    const replacement = (await server.upload('acme replacement', { network: 'public' })).cid as string
    // tenant B holds the same bytes (the same CID) as a file of its own
    expect((await server.upload('shared original', { network: 'public' }, 'tenant-b')).cid).toBe(original)
    const secret = (await server.upload('acme private', { network: 'private' })).cid as string
    const onlyB = (await server.upload('b only', { network: 'public' }, 'tenant-b')).cid as string
    const swap = await server.api(`/v3/files/public/swap/${original}`, {
      method: 'PUT',
      body: JSON.stringify({ swap_cid: replacement }),
    })
    expect(swap.status).toBe(200)

    expect((await requestOnHost(server, host('acme'), `/ipfs/${original}`)).body).toBe('acme replacement')
    // B's host: B's own copy of the CID, never A's swap
    expect((await requestOnHost(server, host('bee'), `/ipfs/${original}`)).body).toBe('shared original')
    // the shared path gateway: every CID is its own bytes
    expect(await (await server.fetch(`${server.url}/ipfs/${original}`)).text()).toBe('shared original')
    expect((await requestOnHost(server, host('bee'), `/ipfs/${replacement}`)).status).toBe(404)
    expect((await requestOnHost(server, host('bee'), `/ipfs/${secret}`)).status).toBe(404)
    expect((await requestOnHost(server, host('acme'), `/ipfs/${secret}`)).status).toBe(404)
    expect((await requestOnHost(server, host('acme'), `/ipfs/${onlyB}`)).status).toBe(404)
  })

  it("createAccessLink's gateway: the link is on the tenant's host and opens there, nowhere else", async () => {
    const secret = (await server.upload('linked secret', { network: 'private', name: 'secret.txt' })).cid as string
    const made = await link(`https://${host('acme')}/files/${secret}`)
    expect(made.status).toBe(200)
    const url = new URL(made.body.data)
    expect(url.origin).toBe(`https://${host('acme')}`)
    expect(url.pathname).toBe(`/files/${secret}`)
    const opened = await server.fetch(url)
    expect(opened.status).toBe(200)
    expect(await opened.text()).toBe('linked secret')
    expect(opened.headers.get('content-security-policy')).toBe('sandbox')

    // the same signed path and query on tenant B's host: A's file does not exist there
    const elsewhere = new URL(url)
    elsewhere.host = host('bee')
    expect((await server.fetch(elsewhere)).status).toBe(404)
    const tampered = new URL(url)
    tampered.searchParams.set('X-Expires', '99999')
    expect((await server.fetch(tampered)).status).toBe(403)

    // a host that is not the tenant's: a clear 400, no link
    for (const foreign of [`https://${host('bee')}`, `https://${host('nobody')}`, 'https://elsewhere.example']) {
      const refused = await link(`${foreign}/files/${secret}`)
      expect(refused.status, foreign).toBe(400)
      expect(refused.body.error).toMatch(/not one of this account's gateways/)
    }
    // the API's own host, a bare path, and the SDK's https://http:// prefix all give a link on the API
    for (const own of [`${server.url}/files/${secret}`, `/files/${secret}`, `https://${server.url}/files/${secret}`]) {
      const res = await link(own)
      expect(res.status, own).toBe(200)
      expect(res.body.data.startsWith(`${server.url}/files/${secret}?`), own).toBe(true)
    }
  })

  it('a verified custom domain is a gateway for links too; a pending one is not', async () => {
    const created = (await claim({ domain: 'files.acme-corp.example' })).body.data
    const secret = (await server.upload('custom domain secret', { network: 'private' })).cid as string
    expect((await link(`https://files.acme-corp.example/files/${secret}`)).status).toBe(400)
    txt.set('_service-verify.files.acme-corp.example', [[created.verification!.value]])
    const verified = await server.api(`/v3/gateways/domains/${created.id}/verify`, { method: 'POST' })
    expect(((await verified.json()) as { data: WireDomain }).data.status).toBe('active')
    const made = await link(`https://files.acme-corp.example/files/${secret}`)
    expect(made.body.data.startsWith('https://files.acme-corp.example/files/')).toBe(true)
    expect(await (await server.fetch(made.body.data)).text()).toBe('custom domain secret')
  })

  it('removing a dedicated gateway stops it at once and frees the name', async () => {
    const created = (await claim({ name: 'short-lived' })).body.data
    const file = (await server.upload('short', { network: 'public' })).cid as string
    expect((await requestOnHost(server, host('short-lived'), `/ipfs/${file}`)).status).toBe(200)
    expect((await server.api(`/v3/gateways/domains/${created.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await requestOnHost(server, host('short-lived'), `/ipfs/${file}`)).status).toBe(404)
    expect((await claim({ name: 'short-lived' }, 'tenant-b')).status).toBe(201)
  })
})

describe('dedicated gateways - off without a gateway domain', () => {
  it('a name cannot be claimed (400), custom domains still can', async () => {
    const server = await startGatewayApi({ publicHost: true })
    try {
      const res = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ name: 'acme' }) })
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(/PINFOLD_GATEWAY_DOMAIN/)
      const custom = await server.api('/v3/gateways/domains', {
        method: 'POST',
        body: JSON.stringify({ domain: 'cdn.example.org' }),
      })
      expect(custom.status).toBe(201)
    } finally {
      await server.close()
    }
  })
})

/**
 * Issue 29: "a dedicated gateway name that equals the API's own host when PINFOLD_PUBLIC_URL is
 * unset". Without a public URL the API's host is whatever a request names, so a tenant can claim
 * `{name}.{gatewayDomain}` even when that is a host the API was reached on. It takes nothing:
 * every host under the gateway domain is a gateway, never the API, claimed or not. With a public
 * URL, its host is refused as a claim, and a public URL under the gateway domain (where the API
 * would answer nowhere) is refused at construction.
 */
describe('dedicated gateways - the API host', () => {
  it('without a public URL, a host under the gateway domain is never the API, before or after a claim of it', async () => {
    const server = await startGatewayApi({ gatewayDomain: GATEWAY_DOMAIN, url: `http://${host('api')}` })
    try {
      const apiHere = () => server.api('/v3/files/public')
      expect((await apiHere()).status).toBe(404)
      // the claim is made on another host the server answers: the request's host is all it knows
      const token = await server.token({ org: 'claimer' })
      const claimed = await server.fetch('http://pinfold.test/v3/gateways/domains', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'api' }),
      })
      expect(claimed.status).toBe(201)
      const after = await apiHere()
      expect(after.status).toBe(404)
      expect(((await after.json()) as { error: string }).error).toContain('a gateway serves /ipfs/{cid}')
      // the API on a host outside the gateway domain is untouched
      const elsewhere = await server.fetch('http://pinfold.test/v3/files/public', {
        headers: { authorization: `Bearer ${token}` },
      })
      expect(elsewhere.status).toBe(200)
    } finally {
      await server.close()
    }
  })

  it('a public URL under the gateway domain is refused at construction; its own host cannot be claimed', async () => {
    await expect(
      startGatewayApi({ gatewayDomain: GATEWAY_DOMAIN, url: `http://${host('api')}`, publicHost: true }),
    ).rejects.toThrow(/option `publicUrl` must not be a host under the service's gatewayDomain \(gw\.pinfold\.test\)/)
    const server = await startGatewayApi({
      gatewayDomain: GATEWAY_DOMAIN,
      url: `http://${GATEWAY_DOMAIN}`,
      publicHost: true,
    })
    try {
      expect((await server.api('/v3/files/public')).status).toBe(200)
      const res = await server.api('/v3/gateways/domains', {
        method: 'POST',
        body: JSON.stringify({ domain: GATEWAY_DOMAIN }),
      })
      expect(res.status).toBe(400)
    } finally {
      await server.close()
    }
  })
})
