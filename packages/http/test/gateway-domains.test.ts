import { type GatewayTestApi, requestOnHost, startGatewayApi } from '@pinfold/testing/gateway'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const getWithHost = (server: GatewayTestApi, host: string, path: string) => requestOnHost(server, host, path)

interface WireDomain {
  id: string
  domain: string
  status: string
  verification: { type: string; name: string; value: string }
}

describe('custom gateway domains', () => {
  let server: GatewayTestApi
  const txt = new Map<string, string[][]>()
  const lookups: string[] = []
  beforeAll(async () => {
    server = await startGatewayApi({
      publicHost: true,
      resolveTxt: async (name) => {
        lookups.push(name)
        const records = txt.get(name)
        if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
        return records
      },
    })
  })
  afterAll(() => server.close())

  const register = async (domain: string, org?: string) => {
    const res = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ domain }), org })
    return { status: res.status, body: (await res.json()) as { data: WireDomain } }
  }
  const verify = async (id: string, org?: string) => {
    const res = await server.api(`/v3/gateways/domains/${id}/verify`, { method: 'POST', org })
    return { status: res.status, body: (await res.json()) as { data: WireDomain } }
  }

  it('domains - pending_ownership until the TXT record holds the token, then active and served', async () => {
    const page = (await server.upload('<h1>tenant page</h1>', { network: 'public', name: 'index.html' })).cid as string
    const created = await register('Files.Example.COM.')
    expect(created.status).toBe(201)
    const domain = created.body.data
    expect(domain).toMatchObject({ domain: 'files.example.com', status: 'pending_ownership' })
    expect(domain.verification).toMatchObject({ type: 'TXT', name: '_service-verify.files.example.com' })

    expect((await getWithHost(server, 'files.example.com', `/ipfs/${page}`)).status).toBe(403)
    expect((await verify(domain.id)).body.data.status).toBe('pending_ownership')
    expect(lookups).toContain('_service-verify.files.example.com')
    txt.set('_service-verify.files.example.com', [['unrelated'], ['not-the-token']])
    expect((await verify(domain.id)).body.data.status).toBe('pending_ownership')
    // a long token may arrive split into character-strings
    const token = domain.verification.value
    txt.set('_service-verify.files.example.com', [['v=spf1'], [token.slice(0, 10), token.slice(10)]])
    expect((await verify(domain.id, 'other-org')).status).toBe(404)
    expect((await verify(domain.id)).body.data.status).toBe('active')

    const served = await getWithHost(server, 'files.example.com:443', `/ipfs/${page}`)
    expect(served.status).toBe(200)
    expect(served.body).toBe('<h1>tenant page</h1>')
    expect(served.headers['content-security-policy']).toBe('sandbox')
    // the API itself is not reachable through a gateway domain
    expect((await getWithHost(server, 'files.example.com', '/v3/files/public')).status).toBe(404)
    const listed = await server.api('/v3/gateways/domains')
    expect(((await listed.json()) as { data: WireDomain[] }).data.map((d) => d.id)).toEqual([domain.id])
  })

  it("domains - a tenant's gateway serves only its own public files and applies its swaps", async () => {
    const created = (await register('cdn.tenant-b.org', 'tenant-b')).body.data
    txt.set('_service-verify.cdn.tenant-b.org', [[created.verification.value]])
    expect((await verify(created.id, 'tenant-b')).body.data.status).toBe('active')
    const own = (await server.upload('b original', { network: 'public' }, 'tenant-b')).cid as string
    const swapped = (await server.upload('b swapped', { network: 'public' }, 'tenant-b')).cid as string
    const foreign = (await server.upload('acme public', { network: 'public' })).cid as string
    const privateB = (await server.upload('b private', { network: 'private' }, 'tenant-b')).cid as string
    expect((await getWithHost(server, 'cdn.tenant-b.org', `/ipfs/${own}`)).body).toBe('b original')
    expect((await getWithHost(server, 'cdn.tenant-b.org', `/ipfs/${foreign}`)).status).toBe(404)
    expect((await getWithHost(server, 'cdn.tenant-b.org', `/ipfs/${privateB}`)).status).toBe(404)
    const put = await server.api(`/v3/files/public/swap/${own}`, {
      method: 'PUT',
      body: JSON.stringify({ swap_cid: swapped }),
      org: 'tenant-b',
    })
    expect(put.status).toBe(200)
    expect((await getWithHost(server, 'cdn.tenant-b.org', `/ipfs/${own}`)).body).toBe('b swapped')
  })

  it('domains - a domain has one owner, bad names are refused, delete stops serving', async () => {
    const created = (await register('unique.example.net')).body.data
    // a pending claim proves nothing, so it blocks nobody; the verified owner's does
    expect((await register('unique.example.net', 'someone-else')).status).toBe(201)
    for (const bad of ['localhost', 'exa mple.com', '-bad.example.com', '', 42]) {
      expect((await register(bad as string)).status, String(bad)).toBe(400)
    }
    txt.set('_service-verify.unique.example.net', [[created.verification.value]])
    await verify(created.id)
    expect((await register('unique.example.net', 'third')).status).toBe(409)
    const file = (await server.upload('unique', { network: 'public' })).cid as string
    expect((await getWithHost(server, 'unique.example.net', `/ipfs/${file}`)).status).toBe(200)
    // while active, the host is a gateway only: API paths are not served there
    expect((await getWithHost(server, 'unique.example.net', '/v3/gateways/plugins/marketplace')).status).toBe(404)
    expect((await server.api(`/v3/gateways/domains/${created.id}`, { method: 'DELETE', org: 'x' })).status).toBe(404)
    expect((await server.api(`/v3/gateways/domains/${created.id}`, { method: 'DELETE' })).status).toBe(200)
    // once deleted the host is nobody's gateway: the request reaches the API's routes (which want a token)
    expect((await getWithHost(server, 'unique.example.net', '/v3/gateways/plugins/marketplace')).status).toBe(401)
  })
})
