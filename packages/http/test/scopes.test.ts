import { startPaidApi, uploadPrivate } from '@pinfold/testing/payments'
import type { TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/** Every scope the spec names (part 5), and nothing else. */
const SPEC_SCOPES = [
  'org:files:write',
  'org:files:read',
  'org:groups:write',
  'org:groups:read',
  'org:gateways:read',
  'org:write',
]

describe('scopes the spec names', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startPaidApi()
  })
  afterAll(() => server.close())

  const post = (path: string, body: unknown, auth: string) =>
    server.api(path, { method: 'POST', body: JSON.stringify(body), auth })

  it('org:write - manages payment instructions (create, list, attach, detach, delete)', async () => {
    const auth = await server.token({ scopes: SPEC_SCOPES })
    const cid = await uploadPrivate(server, 'priced by org:write')
    const created = await post('/v3/x402/payment_instructions', { name: 'org-wide' }, auth)
    expect(created.status).toBe(200)
    const { id } = ((await created.json()) as { data: { id: string } }).data
    const base = `/v3/x402/payment_instructions/${id}`
    expect((await server.api(base, { auth })).status).toBe(200)
    expect((await server.api(`${base}/cids/${cid}`, { method: 'PUT', auth })).status).toBe(200)
    expect((await server.api(`${base}/cids/${cid}`, { method: 'DELETE', auth })).status).toBe(200)
    expect((await server.api(base, { method: 'DELETE', auth })).status).toBe(200)
  })

  it('org:write - is still needed: a token with only file scopes gets 403 on payment instructions', async () => {
    const auth = await server.token({ scopes: ['org:files:write', 'org:files:read'] })
    const res = await post('/v3/x402/payment_instructions', { name: 'no' }, auth)
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ error: 'this token lacks the org:x402:write scope' })
  })

  it('POST /v3/files/sign - a read-only files token signs a download link (what gateways.private.get sends)', async () => {
    const cid = await uploadPrivate(server, 'read me')
    const auth = await server.token({ scopes: ['org:files:read'] })
    const date = Math.floor(Date.now() / 1000)
    const res = await post(
      '/v3/files/sign',
      { url: `${server.url}/files/${cid}`, date, expires: 30, method: 'GET' },
      auth,
    )
    expect(res.status).toBe(200)
    const link = ((await res.json()) as { data: string }).data
    const file = await server.fetch(link)
    expect(file.status).toBe(200)
    expect(await file.text()).toBe('read me')
  })

  it('POST /v3/files/sign - upload signing still needs org:files:write', async () => {
    const auth = await server.token({ scopes: ['org:files:read'] })
    const res = await post('/v3/files/sign', { expires: 60 }, auth)
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ error: 'this token lacks the org:files:write scope' })
    const none = await server.token({ scopes: ['org:groups:read'] })
    expect(
      (await post('/v3/files/sign', { url: `${server.url}/files/x`, expires: 30, method: 'GET' }, none)).status,
    ).toBe(403)
  })

  it('org:write - covers Pinfold’s own write scopes: the spec’s scopes create an admin key and manage domains', async () => {
    const auth = await server.token({ scopes: SPEC_SCOPES })
    const admin = await post('/v3/pinata/keys', { keyName: 'admin by spec scopes', permissions: { admin: true } }, auth)
    expect(admin.status).toBe(200)
    const { JWT } = (await admin.json()) as { JWT: string }
    // the admin key holds every scope, Pinfold's own included
    expect((await post('/v3/gateways/domains', { domain: 'files.example.com' }, JWT)).status).toBe(201)
    expect((await post('/v3/gateways/domains', { domain: 'media.example.com' }, auth)).status).toBe(201)
    expect(
      (
        await server.api(
          '/v3/ipfs/gateway_analytics_top?gateway_domain=x&start_date=2026-01-01&end_date=2026-01-02&sort_by=requests&by=cid',
          { auth },
        )
      ).status,
    ).toBe(200)
  })

  it('Pinfold’s own scopes only narrow: a token without org:write or org:gateways:write cannot manage domains', async () => {
    const auth = await server.token({ scopes: ['org:gateways:read', 'org:files:write'] })
    const res = await post('/v3/gateways/domains', { domain: 'narrow.example.com' }, auth)
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ error: 'this token lacks the org:gateways:write scope' })
  })
})
