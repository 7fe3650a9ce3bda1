import { mintOperatorToken } from '@pinfold/core'
import { startTestApi, TEST_SECRET, type TestApi } from '@pinfold/testing/test-api'
import { routesOnlyWebhookTransport } from '@pinfold/testing/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Webhook endpoints and the audit log over real HTTP requests: each change a tenant makes to an
 * endpoint is an entry naming its request; the operator lists a tenant's endpoints with their state
 * and disables or enables one (`/admin/v1/tenants/{id}/webhooks`), recorded in that tenant's log
 * with the operator as actor; another tenant's ids, unknown tenants and tenant tokens get 404s.
 * (The same transaction as the change: the conformance suite's RecordedOptions table.)
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

let server: TestApi
let operator: string
const acme = `hooks-${crypto.randomUUID().slice(0, 8)}`
const globex = `${acme}-globex`
const url = 'https://hooks.example.com/in'

beforeAll(async () => {
  server = await startTestApi({ embedder: null, webhookTransport: routesOnlyWebhookTransport })
  operator = await mintOperatorToken(TEST_SECRET, { sub: 'ops-alice', expiresIn: '1h' })
})
afterAll(() => server?.close())

/** A JSON request, as `org` (a tenant token) unless `auth` is given; answers the status and the body. */
async function call(
  path: string,
  init: { method?: string; body?: unknown; org?: string; auth?: string | null; requestId?: string } = {},
) {
  const res = await server.api(path, {
    method: init.method ?? 'GET',
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    headers: init.requestId ? { 'x-request-id': init.requestId } : {},
    auth: init.auth !== undefined ? init.auth : await server.token({ org: init.org ?? acme, sub: 'alice' }),
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

async function endpointEvents(org: string): Promise<WireEvent[]> {
  const res = await call(
    '/v3/audit/events?order=asc&type=endpoint.created,endpoint.updated,endpoint.enabled,endpoint.disabled,endpoint.secret_rotated,endpoint.deleted',
    { org },
  )
  expect(res.status).toBe(200)
  return res.body.data.events
}

describe('webhook endpoints in the audit log, and the operator on a tenant’s endpoints', () => {
  it('a tenant’s endpoint changes - one entry each, with its request id and target, never the secret', async () => {
    const org = `${acme}-log`
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
    const endpoint = await register(acme)
    const base = `/admin/v1/tenants/${acme}/webhooks`
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

    const log = (await endpointEvents(acme)).slice(1)
    const target = { kind: 'webhook', id: endpoint.id }
    expect(log).toMatchObject([
      {
        type: 'endpoint.disabled',
        actor: { kind: 'operator', id: 'ops-alice' },
        request_id: 'req-ops-disable',
        target,
        data: { url, reason: 'disabled by the operator: it floods a third party' },
      },
      { type: 'endpoint.enabled', actor: { kind: 'operator', id: 'ops-alice' }, request_id: 'req-ops-enable', target },
    ])
    // a bodyless disable then reads "disabled by the operator"
    const plain = await asOperator(`${base}/${endpoint.id}/disable`, { method: 'POST' })
    expect(plain.body.data.disabled_reason).toBe('disabled by the operator')
  })

  it('isolation - another tenant’s endpoint id, an unknown tenant, a bad reason and tenant tokens are refused, changing nothing', async () => {
    const mine = await register(acme)
    const theirs = await register(globex)
    const base = `/admin/v1/tenants/${acme}/webhooks`
    for (const action of ['enable', 'disable']) {
      const res = await asOperator(`${base}/${theirs.id}/${action}`, { method: 'POST' })
      expect(res).toEqual({ status: 404, body: { error: 'webhook endpoint not found' } })
      expect((await asOperator(`${base}/not-an-id/${action}`, { method: 'POST' })).status).toBe(404)
    }
    const unknown = await asOperator(`/admin/v1/tenants/${acme}-nobody/webhooks`)
    expect(unknown).toEqual({ status: 404, body: { error: 'tenant not found' } })
    expect(
      (await asOperator(`/admin/v1/tenants/${acme}-nobody/webhooks/${mine.id}/disable`, { method: 'POST' })).status,
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
      expect((await call(path, { method, org: globex })).status).toBe(404)
      expect((await call(path, { method, auth: null })).status).toBe(404)
    }
    // nothing changed, and globex's log holds only its own creation
    expect((await call(`/v3/webhooks/${mine.id}`)).body.data.enabled).toBe(true)
    expect((await call(`/v3/webhooks/${theirs.id}`, { org: globex })).body.data.enabled).toBe(true)
    expect((await endpointEvents(globex)).map((e) => e.type)).toEqual(['endpoint.created'])
  })
})
