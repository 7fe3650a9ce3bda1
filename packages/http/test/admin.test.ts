import { mintOperatorToken, mintToken, SCOPES } from '@pinfold/core'
import { form, startTestApi, TEST_SECRET, type TestApi, upload } from '@pinfold/testing/test-api'
import { routesOnlyWebhookTransport } from '@pinfold/testing/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../src/index.js'

/**
 * The admin API over real HTTP requests to the handler: operator tokens, the tenant registry (first
 * request, admin creation), suspension with public content kept or hidden, revoking a tenant's keys,
 * the pin queue across tenants, a tenant's webhook endpoints, and bad input. Its invisibility to tenants is in
 * `reliability/isolation.test.ts`.
 */

interface AdminTenant {
  id: string
  origin: 'token' | 'admin'
  suspension: { reason: string; hide_content: boolean } | null
  usage: { files: number; bytes: number }
}

let server: TestApi
let operator: string
let publicCid: string

beforeAll(async () => {
  server = await startTestApi({ embedder: null, webhookTransport: routesOnlyWebhookTransport })
  operator = await mintOperatorToken(TEST_SECRET, { sub: 'ops', expiresIn: '1h' })
  const uploaded = await upload(server, { bytes: 'acme public page' }, { network: 'public' }, await server.token())
  expect(uploaded.status).toBe(200)
  publicCid = String(uploaded.body.data.cid)
  await upload(server, { bytes: 'globex private notes' }, {}, await server.token({ org: 'globex' }))
})
afterAll(() => server?.close())

const admin = async (path: string, init: { method?: string; body?: unknown; auth?: string } = {}) => {
  const res = await server.api(`/admin/v1${path}`, {
    method: init.method ?? 'GET',
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    auth: init.auth ?? operator,
  })
  // biome-ignore lint/suspicious/noExplicitAny: the answers of eight routes, each read by its test
  return { status: res.status, body: (await res.json()) as { data?: any; error?: string } }
}

describe('admin API - operator tokens', () => {
  it('tokens - an operator token is no tenant token, and a tenant token claiming the scope is no operator', async () => {
    expect((await server.api('/v3/files/public', { auth: operator })).status).toBe(401)
    const claiming = await mintToken(TEST_SECRET, {
      sub: 'mallory',
      org: 'acme',
      scopes: [...SCOPES, 'pinfold:operator'],
      expiresIn: '1h',
    })
    expect((await admin('/tenants', { auth: claiming })).status).toBe(404)
    const otherSecret = await mintOperatorToken('another-deployment-secret-0123456789abcdef', {
      sub: 'x',
      expiresIn: 60,
    })
    expect((await admin('/tenants', { auth: otherSecret })).status).toBe(404)
  })

  it('keys - no API key, admin or child, can be created with the operator scope', async () => {
    for (const permissions of [{ resources: ['pinfold:operator'] }, { resources: ['org:write', 'pinfold:operator'] }]) {
      const res = await server.api('/v3/pinata/keys', {
        method: 'POST',
        body: JSON.stringify({ keyName: 'ops', permissions }),
      })
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(/pinfold:operator.* is not a scope/)
    }
    // an admin key (every tenant scope) works on the API and still not on the admin API
    const created = await server.api('/v3/pinata/keys', {
      method: 'POST',
      body: JSON.stringify({ keyName: 'all', permissions: { admin: true } }),
    })
    const { JWT } = (await created.json()) as { JWT: string }
    expect((await server.api('/v3/files/public', { auth: JWT })).status).toBe(200)
    expect((await admin('/tenants', { auth: JWT })).status).toBe(404)
  })
})

describe('admin API - tenants', () => {
  it('GET /tenants - tenants known by their first request, with their use and limits; search, status and paging', async () => {
    const list = await admin('/tenants')
    expect(list.status).toBe(200)
    const byId = new Map((list.body.data.tenants as AdminTenant[]).map((t) => [t.id, t]))
    expect(byId.get('acme')).toMatchObject({
      origin: 'token',
      suspension: null,
      usage: { files: 1, bytes: 16 },
      // the console's table shows these without a request per tenant
      accounting: { logical_bytes: 16, contents: 1, sole_bytes: 16, shared_bytes: 0 },
      limits: { storage_bytes: null, files: null, file_bytes: null, requests_per_minute: null },
    })
    expect(byId.get('globex')).toMatchObject({ origin: 'token', usage: { files: 1 } })
    const found = await admin('/tenants?search=GLOB')
    expect(found.body.data.tenants.map((t: AdminTenant) => t.id)).toEqual(['globex'])
    const page = await admin('/tenants?limit=1&offset=1')
    expect(page.body.data.tenants).toHaveLength(1)
    expect(page.body.data.total).toBe(list.body.data.total)
    expect((await admin('/tenants?status=suspended')).body.data.tenants).toEqual([])
  })

  it('POST /tenants - creates a tenant before its first request; twice is a 409', async () => {
    const created = await admin('/tenants', { method: 'POST', body: { id: 'initech' } })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ id: 'initech', origin: 'admin', suspension: null })
    expect((await admin('/tenants', { method: 'POST', body: { id: 'initech' } })).status).toBe(409)
    // its first request finds it known: the origin stays the admin API's
    expect((await server.api('/v3/files/public', { org: 'initech' })).status).toBe(200)
    expect((await admin('/tenants/initech')).body.data.origin).toBe('admin')
  })

  it('GET /tenants/{id} - use, pin requests by state, keys, and its limits and use under deduplication', async () => {
    const detail = await admin('/tenants/acme')
    expect(detail.status).toBe(200)
    expect(detail.body.data).toMatchObject({
      id: 'acme',
      usage: { files: 1, bytes: 16 },
      pins: { queued: expect.any(Number), retrieving: 0, pinned: 0, failed: 0 },
      api_keys: { total: expect.any(Number), active: expect.any(Number) },
      account: {
        limits: { storage_bytes: null, files: null },
        usage: { files: 1, logical_bytes: 16, sole_bytes: 16, shared_bytes: 0 },
        overrides: {},
      },
    })
    expect(await admin('/tenants/nobody')).toEqual({ status: 404, body: { error: 'tenant not found' } })
  })

  it('PUT /tenants/{id}/limits - the tenant is held to them from its next request, and sees them itself', async () => {
    const set = await admin('/tenants/hooli/limits', { method: 'PUT', body: { files: 1, file_bytes: 100 } })
    expect(set.status).toBe(404) // not known yet: no request, no admin creation
    const hooli = await server.token({ org: 'hooli' })
    expect((await upload(server, { bytes: 'first' }, {}, hooli)).status).toBe(200)
    const limited = await admin('/tenants/hooli/limits', { method: 'PUT', body: { files: 1, file_bytes: 100 } })
    expect(limited.status).toBe(200)
    expect(limited.body.data).toMatchObject({
      limits: { files: 1, file_bytes: 100, storage_bytes: null },
      overrides: { files: 1, file_bytes: 100 },
      usage: { files: 1 },
    })
    const refused = await upload(server, { bytes: 'second' }, {}, hooli)
    expect(refused.status).toBe(403)
    expect(refused.body.error).toMatch(/limit/)
    const own = await server.api('/v3/data/limits', { auth: hooli })
    expect(((await own.json()) as { data: { limits: { files: number } } }).data.limits.files).toBe(1)
    expect((await admin('/tenants?search=hooli')).body.data.tenants[0].limits).toMatchObject({
      files: 1,
      file_bytes: 100,
    })
    // null lifts a limit; bad values are a 400 that changes nothing
    for (const body of [{ files: -1 }, { files: 1.5 }, { files: 'many' }, { unknown_limit: 3 }]) {
      const bad = await admin('/tenants/hooli/limits', { method: 'PUT', body })
      expect(bad.status, JSON.stringify(body)).toBe(400)
      expect(Object.keys(bad.body)).toEqual(['error'])
    }
    const lifted = await admin('/tenants/hooli/limits', { method: 'PUT', body: { files: null } })
    expect(lifted.body.data.limits).toMatchObject({ files: null, file_bytes: null })
    expect((await upload(server, { bytes: 'second' }, {}, hooli)).status).toBe(200)
  })

  it('bad input - a clear 400 JSON that changes nothing', async () => {
    const before = await admin('/tenants')
    for (const [path, init] of [
      ['/tenants?limit=0', {}],
      ['/tenants?limit=abc', {}],
      ['/tenants?status=gone', {}],
      ['/tenants?offset=-1', {}],
      ['/tenants', { method: 'POST', body: { id: '' } }],
      ['/tenants', { method: 'POST', body: { id: 'bad\nid' } }],
      ['/tenants', { method: 'POST', body: { name: 'x' } }],
      ['/tenants/acme/suspend', { method: 'POST', body: { reason: '', hide_content: false } }],
      ['/tenants/acme/suspend', { method: 'POST', body: { reason: 'x' } }],
      ['/tenants/acme/suspend', { method: 'POST', body: { reason: 'x', hide_content: 'yes' } }],
      ['/pins?status=lost', {}],
      ['/pins?pageToken=nonsense', {}],
      ['/pins?limit=100000', {}],
    ] as const) {
      const res = await admin(path, init)
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(400)
      expect(Object.keys(res.body), path).toEqual(['error'])
    }
    const raw = await server.api('/admin/v1/tenants', {
      method: 'POST',
      body: '{"id": ',
      auth: operator,
    })
    expect(raw.status).toBe(400)
    expect(await admin('/tenants')).toEqual(before)
  })
})

describe('admin API - suspension', () => {
  it('suspend (content kept) - tokens and keys get a 403 naming it, public content stays served; resume undoes it', async () => {
    const key = await server.api('/v3/pinata/keys', {
      method: 'POST',
      body: JSON.stringify({ keyName: 'ci', permissions: { admin: true } }),
    })
    const { JWT } = (await key.json()) as { JWT: string }
    const sign = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ date: Math.floor(Date.now() / 1000), expires: 600 }),
    })
    const signedUrl = ((await sign.json()) as { data: string }).data
    const secret = await upload(server, { bytes: 'acme private' }, {}, await server.token())
    const linked = await server.api('/v3/files/private/download_link', {
      method: 'POST',
      body: JSON.stringify({ url: `/files/${secret.body.data.cid}`, expires: 600 }),
    })
    const link = ((await linked.json()) as { data: string }).data
    const suspended = await admin('/tenants/acme/suspend', {
      method: 'POST',
      body: { reason: 'unpaid invoice', hide_content: false },
    })
    expect(suspended.body.data.suspension).toMatchObject({ reason: 'unpaid invoice', hide_content: false })
    for (const auth of [await server.token(), JWT]) {
      const refused = await server.api('/v3/files/public', { auth })
      expect(refused.status).toBe(403)
      expect(await refused.json()).toEqual({
        error: 'tenant acme is suspended by the operator of this deployment: unpaid invoice',
      })
    }
    expect((await server.fetch(`${server.url}/ipfs/${publicCid}`)).status).toBe(200)
    expect((await server.api('/v3/files/public', { org: 'globex' })).status).toBe(200)
    // a URL it signed before the suspension is refused too
    const signedUpload = await server.fetch(signedUrl, {
      method: 'POST',
      body: form({}, { bytes: 'late', name: 'l.txt' }),
    })
    expect(signedUpload.status).toBe(403)
    // and so is a private download link it made before
    const refusedLink = await server.fetch(link)
    expect(refusedLink.status).toBe(403)
    await refusedLink.arrayBuffer()
    const listed = await admin('/tenants?status=suspended')
    expect(listed.body.data.tenants.map((t: AdminTenant) => t.id)).toEqual(['acme'])

    expect((await admin('/tenants/acme/resume', { method: 'POST' })).body.data.suspension).toBeNull()
    expect((await server.api('/v3/files/public')).status).toBe(200)
    expect((await server.api('/v3/files/public', { auth: JWT })).status).toBe(200)
    const resumed = await server.fetch(signedUrl, { method: 'POST', body: form({}, { bytes: 'back', name: 'b.txt' }) })
    expect(resumed.status).toBe(200)
    const linkBack = await server.fetch(link)
    expect(linkBack.status).toBe(200)
    expect(await linkBack.text()).toBe('acme private')
  })

  it('suspend (content hidden) - the gateway stops serving what only it holds, not what others hold too', async () => {
    const shared = await upload(server, { bytes: 'held by two' }, { network: 'public' }, await server.token())
    const sharedCid = String(shared.body.data.cid)
    await upload(server, { bytes: 'held by two' }, { network: 'public' }, await server.token({ org: 'globex' }))
    await admin('/tenants/acme/suspend', { method: 'POST', body: { reason: 'abuse report', hide_content: true } })
    const hidden = await server.fetch(`${server.url}/ipfs/${publicCid}`)
    expect(hidden.status).toBe(404)
    await hidden.arrayBuffer()
    const stillServed = await server.fetch(`${server.url}/ipfs/${sharedCid}`)
    expect(stillServed.status).toBe(200)
    expect(await stillServed.text()).toBe('held by two')
    await admin('/tenants/acme/resume', { method: 'POST' })
    const back = await server.fetch(`${server.url}/ipfs/${publicCid}`)
    expect(back.status).toBe(200)
    expect(await back.text()).toBe('acme public page')
  })

  it('suspend / resume - an unknown tenant is a 404', async () => {
    const body = { reason: 'x', hide_content: false }
    expect((await admin('/tenants/nobody/suspend', { method: 'POST', body })).status).toBe(404)
    expect((await admin('/tenants/nobody/resume', { method: 'POST' })).status).toBe(404)
    expect((await admin('/tenants/nobody/keys/revoke', { method: 'POST' })).status).toBe(404)
  })
})

describe('admin API - deny rules', () => {
  it('POST /deny-rules - the gateway refuses the CID from the next request; DELETE serves it again; a bad rule is a 400', async () => {
    expect((await server.fetch(`${server.url}/ipfs/${publicCid}`)).status).toBe(200)
    const added = await admin('/deny-rules', { method: 'POST', body: { rule: `/ipfs/${publicCid}` } })
    expect(added.status).toBe(201)
    expect(added.body.data).toMatchObject({ rule: `/ipfs/${publicCid}`, line: expect.any(Number) })
    expect((await server.fetch(`${server.url}/ipfs/${publicCid}`)).status).toBe(410)
    expect((await admin('/deny-rules')).body.data.rules.map((r: { id: string }) => r.id)).toEqual([added.body.data.id])
    for (const rule of ['/ipfs/not-a-cid', `/ipfs/${publicCid}\n/ipfs/${publicCid}`, '']) {
      const bad = await admin('/deny-rules', { method: 'POST', body: { rule } })
      expect(bad.status, rule).toBe(400)
      expect(Object.keys(bad.body)).toEqual(['error'])
    }
    expect((await admin(`/deny-rules/${added.body.data.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await admin(`/deny-rules/${added.body.data.id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await server.fetch(`${server.url}/ipfs/${publicCid}`)).status).toBe(200)
    expect((await admin('/deny-rules')).body.data.rules).toEqual([])
  })
})

describe('admin API - keys and queue', () => {
  it('POST /tenants/{id}/keys/revoke - every key of the tenant stops working at once; other tenants keep theirs', async () => {
    const mint = async (org: string) => {
      const res = await server.api('/v3/pinata/keys', {
        method: 'POST',
        body: JSON.stringify({ keyName: 'k', permissions: { admin: true } }),
        org,
      })
      return ((await res.json()) as { JWT: string }).JWT
    }
    const [one, two, theirs] = [await mint('acme'), await mint('acme'), await mint('globex')]
    // used just before: each is trusted by this process for a few seconds, unless a revocation says otherwise
    for (const jwt of [one, two]) expect((await server.api('/v3/files/public', { auth: jwt })).status).toBe(200)
    const revoked = await admin('/tenants/acme/keys/revoke', { method: 'POST' })
    expect(revoked.status).toBe(200)
    expect(revoked.body.data.revoked).toBeGreaterThanOrEqual(2)
    for (const jwt of [one, two]) expect((await server.api('/v3/files/public', { auth: jwt })).status).toBe(401)
    expect((await server.api('/v3/files/public', { auth: theirs })).status).toBe(200)
    expect((await admin('/tenants/acme')).body.data.api_keys.active).toBe(0)
  })

  it('GET /pins - every tenant’s requests by state, paged by token', async () => {
    const cids = [
      'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
      'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
    ]
    for (const [i, org] of ['acme', 'globex'].entries()) {
      const res = await server.api('/v3/files/public/pin_by_cid', {
        method: 'POST',
        body: JSON.stringify({ cid: cids[i] }),
        org,
      })
      expect(res.status, await res.text()).toBe(200)
    }
    const first = await admin('/pins?status=queued&limit=1')
    expect(first.status).toBe(200)
    expect(first.body.data.pins).toHaveLength(1)
    const second = await admin(`/pins?status=queued&limit=1&pageToken=${first.body.data.next_page_token}`)
    const both = [...first.body.data.pins, ...second.body.data.pins]
    expect(both.map((p: { tenant_id: string }) => p.tenant_id).sort()).toEqual(['acme', 'globex'])
    expect(both.map((p: { cid: string }) => p.cid).sort()).toEqual([...cids].sort())
    expect((await admin('/pins?status=failed')).body.data).toEqual({ pins: [], next_page_token: '' })
  })

  it('GET /totals - the figures the metrics export', async () => {
    const totals = await admin('/totals')
    expect(totals.status).toBe(200)
    expect(totals.body.data.stored.files).toBeGreaterThanOrEqual(4)
    expect(totals.body.data.pins.find((p: { state: string }) => p.state === 'queued').count).toBeGreaterThanOrEqual(2)
  })

  it('routes - every admin route is under /admin/v1 and needs an operator', () => {
    const adminRoutes = routes.filter((r) => r.path.startsWith('/admin/'))
    expect(adminRoutes.length).toBeGreaterThanOrEqual(8)
    for (const route of adminRoutes) expect(route.auth, route.path).toBe('operator')
    for (const route of routes.filter((r) => r.auth === 'operator')) expect(route.path).toMatch(/^\/admin\/v1\//)
  })
})

/**
 * Webhook endpoints and the audit log: each change a tenant makes to an endpoint is an entry naming
 * its request; the operator lists a tenant's endpoints with their state and disables or enables one
 * (`/admin/v1/tenants/{id}/webhooks`), recorded in that tenant's log with the operator as actor;
 * another tenant's ids, unknown tenants and tenant tokens get 404s. (The same transaction as the
 * change: the conformance suite's RecordedOptions table.)
 */

interface WireEndpoint {
  id: string
  url: string
  enabled: boolean
  disabled_at: string | null
  disabled_reason: string | null
  failing_since: string | null
  updated_at: string
}

interface WireEvent {
  type: string
  actor: { kind: string; id: string }
  request_id: string | null
  target: { kind: string; id: string }
  data: Record<string, unknown>
}

const hookTenant = `hooks-${crypto.randomUUID().slice(0, 8)}`
const otherTenant = `${hookTenant}-other`
const url = 'https://hooks.example.com/in'

/** A JSON request, as `org` (a tenant token) unless `auth` is given; answers the status and the body. */
async function call(
  path: string,
  init: { method?: string; body?: unknown; org?: string; auth?: string | null; requestId?: string } = {},
) {
  const res = await server.api(path, {
    method: init.method ?? 'GET',
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    headers: init.requestId ? { 'x-request-id': init.requestId } : {},
    auth: init.auth !== undefined ? init.auth : await server.token({ org: init.org ?? hookTenant, sub: 'alice' }),
  })
  const text = await res.text()
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the answer it expects
  return { status: res.status, body: (text ? JSON.parse(text) : null) as { data?: any; error?: string } }
}

const asOperator = (path: string, init: { method?: string; body?: unknown; requestId?: string } = {}) =>
  call(path, { ...init, auth: operator })

async function register(org: string, requestId?: string): Promise<WireEndpoint> {
  const created = await call('/v3/webhooks', {
    method: 'POST',
    body: { url, event_types: ['file.created'] },
    org,
    requestId,
  })
  expect(created.status).toBe(201)
  return created.body.data
}

/**
 * Runs `race` while the store's endpoint reads wait until `n` have started, so `n` concurrent
 * calls each read the state before any of them changes it (the interleaving a busy server gives).
 */
async function withEndpointReadsHeld<T>(n: number, race: () => Promise<T>): Promise<T> {
  const webhooks = server.stores.records.webhooks
  const read = webhooks.getWebhookEndpoint
  const held: (() => void)[] = []
  webhooks.getWebhookEndpoint = async (...args) => {
    await new Promise<void>((resolve) => {
      held.push(resolve)
      if (held.length === n) for (const release of held) release()
    })
    return read.apply(webhooks, args)
  }
  try {
    return await race()
  } finally {
    webhooks.getWebhookEndpoint = read
  }
}

async function endpointEvents(org: string): Promise<WireEvent[]> {
  const res = await call(
    '/v3/audit/events?order=asc&type=endpoint.created,endpoint.updated,endpoint.enabled,endpoint.disabled,endpoint.secret_rotated,endpoint.deleted',
    { org },
  )
  expect(res.status).toBe(200)
  return res.body.data.events
}

describe('admin API - a tenant’s webhook endpoints; endpoint changes in the audit log', () => {
  it('a tenant’s endpoint changes - one entry each, with its request id and target, never the secret', async () => {
    const org = `${hookTenant}-log`
    const endpoint = await register(org, 'req-create')
    const id = endpoint.id
    const patch = (body: unknown, requestId: string) =>
      call(`/v3/webhooks/${id}`, { method: 'PATCH', body, org, requestId })
    expect((await patch({ description: 'billing' }, 'req-update')).status).toBe(200)
    expect((await patch({ enabled: false }, 'req-disable')).body.data).toMatchObject({
      enabled: false,
      disabled_reason: 'disabled by its owner',
    })
    expect((await patch({ enabled: false }, 'req-again')).status).toBe(200) // no change, no entry
    expect((await patch({ enabled: true }, 'req-enable')).status).toBe(200)
    const rotated = await call(`/v3/webhooks/${id}/rotate-secret`, { method: 'POST', org, requestId: 'req-rotate' })
    expect(rotated.status).toBe(200)
    expect((await call(`/v3/webhooks/${id}`, { method: 'DELETE', org, requestId: 'req-delete' })).status).toBe(200)

    const log = await endpointEvents(org)
    expect(log.map((e) => [e.type, e.request_id])).toEqual([
      ['endpoint.created', 'req-create'],
      ['endpoint.updated', 'req-update'],
      ['endpoint.disabled', 'req-disable'],
      ['endpoint.enabled', 'req-enable'],
      ['endpoint.secret_rotated', 'req-rotate'],
      ['endpoint.deleted', 'req-delete'],
    ])
    for (const event of log) {
      expect(event).toMatchObject({ actor: { kind: 'user', id: 'alice' }, target: { kind: 'webhook', id } })
    }
    expect(log[1]!.data).toEqual({ description: 'billing' })
    expect(JSON.stringify(log)).not.toContain('whsec_')
    expect(JSON.stringify(log)).not.toContain(String(rotated.body.data.secret).slice(6))
  })

  it('the operator lists a tenant’s endpoints with their state, disables one with a reason and enables it, recorded', async () => {
    const endpoint = await register(hookTenant)
    const base = `/admin/v1/tenants/${hookTenant}/webhooks`
    const listed = await asOperator(base)
    expect(listed.status).toBe(200)
    expect(listed.body.data.endpoints).toEqual([
      expect.objectContaining({ id: endpoint.id, enabled: true, failing_since: null }),
    ])

    const disabled = await asOperator(`${base}/${endpoint.id}/disable`, {
      method: 'POST',
      body: { reason: 'it floods a third party' },
      requestId: 'req-ops-disable',
    })
    expect(disabled.status).toBe(200)
    expect(disabled.body.data).toMatchObject({
      id: endpoint.id,
      enabled: false,
      disabled_reason: 'disabled by the operator: it floods a third party',
      disabled_at: expect.any(String),
    })
    // the tenant sees its endpoint so, and the operator's list shows the state
    expect((await call(`/v3/webhooks/${endpoint.id}`)).body.data).toMatchObject({ enabled: false })
    expect((await asOperator(base)).body.data.endpoints[0]).toMatchObject({
      enabled: false,
      disabled_reason: disabled.body.data.disabled_reason,
    })
    // disabling again changes nothing (no second entry); a body-less disable says only who
    const again = await asOperator(`${base}/${endpoint.id}/disable`, { method: 'POST' })
    expect(again.body.data.updated_at).toBe(disabled.body.data.updated_at)

    const enabled = await asOperator(`${base}/${endpoint.id}/enable`, { method: 'POST', requestId: 'req-ops-enable' })
    expect(enabled.status).toBe(200)
    expect(enabled.body.data).toMatchObject({
      enabled: true,
      disabled_at: null,
      disabled_reason: null,
      failing_since: null,
    })

    const log = (await endpointEvents(hookTenant)).slice(1)
    const target = { kind: 'webhook', id: endpoint.id }
    expect(log).toMatchObject([
      {
        type: 'endpoint.disabled',
        actor: { kind: 'operator', id: 'ops' },
        request_id: 'req-ops-disable',
        target,
        data: { url, reason: 'disabled by the operator: it floods a third party' },
      },
      { type: 'endpoint.enabled', actor: { kind: 'operator', id: 'ops' }, request_id: 'req-ops-enable', target },
    ])
    // a bodyless disable then reads "disabled by the operator"
    const plain = await asOperator(`${base}/${endpoint.id}/disable`, { method: 'POST' })
    expect(plain.body.data.disabled_reason).toBe('disabled by the operator')
  })

  it('concurrent identical toggles - every call answers the same endpoint, and one entry is recorded for each change', async () => {
    const org = `${hookTenant}-race`
    const endpoint = await register(org)
    const base = `/admin/v1/tenants/${org}/webhooks/${endpoint.id}`
    // each batch's calls all read the endpoint before any of them writes, as calls that race do
    const times = <T>(n: number, send: () => Promise<T>) =>
      withEndpointReadsHeld(n, () => Promise.all(Array.from({ length: n }, send)))

    const disabled = await times(4, () => asOperator(`${base}/disable`, { method: 'POST', body: { reason: 'spam' } }))
    expect(disabled.map((r) => r.status)).toEqual([200, 200, 200, 200])
    // the calls that found it disabled answer it as the one that disabled it left it
    expect(new Set(disabled.map((r) => JSON.stringify(r.body.data))).size).toBe(1)
    expect(disabled[0]!.body.data).toMatchObject({ enabled: false, disabled_reason: 'disabled by the operator: spam' })

    const patch = (enabled: boolean) => call(`/v3/webhooks/${endpoint.id}`, { method: 'PATCH', body: { enabled }, org })
    const enabled = await times(4, () => patch(true))
    expect(enabled.map((r) => r.status)).toEqual([200, 200, 200, 200])
    expect(new Set(enabled.map((r) => JSON.stringify(r.body.data))).size).toBe(1)
    expect(enabled[0]!.body.data).toMatchObject({ enabled: true, disabled_at: null })

    const again = await times(3, () => patch(false))
    expect(new Set(again.map((r) => JSON.stringify(r.body.data))).size).toBe(1)
    const operatorEnabled = await times(3, () => asOperator(`${base}/enable`, { method: 'POST' }))
    expect(operatorEnabled.map((r) => r.body.data.enabled)).toEqual([true, true, true])

    expect((await endpointEvents(org)).map((e) => [e.type, e.actor.kind])).toEqual([
      ['endpoint.created', 'user'],
      ['endpoint.disabled', 'operator'],
      ['endpoint.enabled', 'user'],
      ['endpoint.disabled', 'user'],
      ['endpoint.enabled', 'operator'],
    ])
  })

  it('isolation - another tenant’s endpoint id, an unknown tenant, a bad reason and tenant tokens are refused, changing nothing', async () => {
    const mine = await register(hookTenant)
    const theirs = await register(otherTenant)
    const base = `/admin/v1/tenants/${hookTenant}/webhooks`
    for (const action of ['enable', 'disable']) {
      const res = await asOperator(`${base}/${theirs.id}/${action}`, { method: 'POST' })
      expect(res).toEqual({ status: 404, body: { error: 'webhook endpoint not found' } })
      expect((await asOperator(`${base}/not-an-id/${action}`, { method: 'POST' })).status).toBe(404)
    }
    const unknown = await asOperator(`/admin/v1/tenants/${hookTenant}-nobody/webhooks`)
    expect(unknown).toEqual({ status: 404, body: { error: 'tenant not found' } })
    expect(
      (await asOperator(`/admin/v1/tenants/${hookTenant}-nobody/webhooks/${mine.id}/disable`, { method: 'POST' }))
        .status,
    ).toBe(404)

    for (const reason of ['', 'x'.repeat(501), 5]) {
      const bad = await asOperator(`${base}/${mine.id}/disable`, { method: 'POST', body: { reason } })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toMatch(/reason/)
    }

    // to a tenant's token (every scope) and to no token the admin API answers as a path that does not exist
    for (const path of [base, `${base}/${mine.id}/disable`]) {
      const method = path === base ? 'GET' : 'POST'
      expect((await call(path, { method })).status).toBe(404)
      expect((await call(path, { method, org: otherTenant })).status).toBe(404)
      expect((await call(path, { method, auth: null })).status).toBe(404)
    }
    // nothing changed, and otherTenant's log holds only its own creation
    expect((await call(`/v3/webhooks/${mine.id}`)).body.data.enabled).toBe(true)
    expect((await call(`/v3/webhooks/${theirs.id}`, { org: otherTenant })).body.data.enabled).toBe(true)
    expect((await endpointEvents(otherTenant)).map((e) => e.type)).toEqual(['endpoint.created'])
  })
})
