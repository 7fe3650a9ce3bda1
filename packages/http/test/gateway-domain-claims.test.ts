import { PENDING_DOMAIN_TTL_MS } from '@pinfold/core'
import { type GatewayTestApi, requestOnHost, startGatewayApi } from '@pinfold/testing/gateway'
import { startTestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Issue 16 finding 4: a pending custom domain could block the API. Registering `127.0.0.1` made
 * every request with that Host (`/healthz`, all of `/v3`) a 403, and whoever claimed a name
 * first locked its real owner out.
 */
interface Answer {
  data: { id: string; status: string; expires_at: string | null; verification: { value: string } }
  error?: string
}

describe('custom domain claims', () => {
  let server: GatewayTestApi
  let now = Date.UTC(2026, 5, 1)
  const txt = new Map<string, string[][]>()
  beforeAll(async () => {
    server = await startGatewayApi({
      url: 'http://127.0.0.1:8080',
      publicUrl: 'http://api.pinfold.example',
      clock: { now: () => new Date(now) },
      resolveTxt: async (name) => txt.get(name) ?? [],
    })
  })
  afterAll(() => server.close())

  const register = async (domain: unknown, org?: string) => {
    const res = await server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ domain }), org })
    return { status: res.status, body: (await res.json()) as Answer }
  }
  const verify = async (id: string, org?: string) => {
    const res = await server.api(`/v3/gateways/domains/${id}/verify`, { method: 'POST', org })
    return { status: res.status, body: (await res.json()) as Answer }
  }
  const onHost = (host: string, path: string) => requestOnHost(server, host, path)

  it('register - IP literals, internal names and the API host are refused with a 400, and nothing is stored', async () => {
    const port = new URL(server.url).port
    for (const bad of [
      '127.0.0.1',
      `127.0.0.1:${port}`,
      '10.1.2.3',
      '2130706433.example.0x7f',
      '::1',
      '[::1]',
      'localhost',
      'files.localhost',
      'printer.local',
      'db.internal',
      'router.home.arpa',
      'api.pinfold.example',
      'API.pinfold.example.',
      'cdn.api.pinfold.example',
    ]) {
      const res = await register(bad)
      expect(res.status, bad).toBe(400)
      expect(res.body, bad).toEqual({ error: expect.any(String) })
    }
    expect(((await (await server.api('/v3/gateways/domains')).json()) as { data: unknown[] }).data).toEqual([])
    // with such a claim refused, the API keeps answering on that host
    expect((await onHost(`127.0.0.1:${port}`, '/healthz')).status).toBe(200)
  })

  it('pending - only gateway paths on the host are refused; /healthz and the API answer as usual', async () => {
    const claim = (await register('pending.example.com', 'squatter')).body.data
    expect(claim).toMatchObject({
      status: 'pending_ownership',
      expires_at: new Date(now + PENDING_DOMAIN_TTL_MS).toISOString(),
    })
    const file = (await server.upload('public bytes', { network: 'public' })).cid as string
    const gateway = await onHost('pending.example.com', `/ipfs/${file}`)
    expect(gateway.status).toBe(403)
    expect(JSON.parse(gateway.body)).toEqual({ error: expect.stringMatching(/not verified/) })
    expect((await onHost('pending.example.com', '/healthz')).status).toBe(200)
    expect((await onHost('pending.example.com', '/readyz')).status).toBe(200)
    // the route's own answer (a token is required), not the domain's 403
    expect((await onHost('pending.example.com', '/v3/files/public')).status).toBe(401)
  })

  it("verify - another tenant's pending claim never blocks the name's real owner", async () => {
    const early = (await register('contested.example.com', 'squatter')).body.data
    const owner = await register('contested.example.com', 'owner')
    expect(owner.status).toBe(201)
    // one claim per tenant and name
    expect((await register('contested.example.com', 'owner')).status).toBe(409)
    txt.set('_service-verify.contested.example.com', [[owner.body.data.verification.value]])
    // the squatter cannot verify: the TXT record holds the owner's token
    expect((await verify(early.id, 'squatter')).body.data.status).toBe('pending_ownership')
    expect((await verify(owner.body.data.id, 'owner')).body.data.status).toBe('active')
    // once the name has an owner, nobody else can verify or claim it
    txt.set('_service-verify.contested.example.com', [[owner.body.data.verification.value], [early.verification.value]])
    const late = await verify(early.id, 'squatter')
    expect(late.status).toBe(409)
    expect(late.body.error).toMatch(/another account/)
    expect((await register('contested.example.com', 'third')).status).toBe(409)
    const own = (await server.upload('owner page', { network: 'public' }, 'owner')).cid as string
    expect((await onHost('contested.example.com', `/ipfs/${own}`)).body).toBe('owner page')
  })

  it('expiry - a lapsed pending claim neither routes nor blocks registering the name again', async () => {
    const claim = (await register('lapsing.example.com')).body.data
    const file = (await server.upload('lapsing', { network: 'public' })).cid as string
    expect((await onHost('lapsing.example.com', `/ipfs/${file}`)).status).toBe(403)
    now += PENDING_DOMAIN_TTL_MS
    // no longer anybody's domain: the shared public gateway answers on that host
    expect((await onHost('lapsing.example.com', `/ipfs/${file}`)).status).toBe(200)
    const lapsed = await verify(claim.id)
    expect(lapsed.status).toBe(409)
    expect(lapsed.body.error).toMatch(/lapsed/)
    const again = await register('lapsing.example.com')
    expect(again.status).toBe(201)
    expect((await server.api(`/v3/gateways/domains/${claim.id}`)).status).toBe(404)
  })
})

describe('custom domain claims on PostgreSQL', () => {
  it('register - a conflict names neither a constraint nor a package', async () => {
    const server = await startTestApi({ storage: 'embedded' })
    try {
      const register = () =>
        server.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ domain: 'twice.example.com' }) })
      expect((await register()).status).toBe(201)
      const second = await register()
      expect(second.status).toBe(409)
      const { error } = (await second.json()) as { error: string }
      expect(error).toBe('twice.example.com is already registered')
    } finally {
      await server.close()
    }
  })
})
