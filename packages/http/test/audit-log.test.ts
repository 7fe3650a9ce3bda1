import { mintOperatorToken } from '@pinfold/core'
import { startTestApi, TEST_SECRET, type TestApi, upload } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The audit log over real HTTP requests: a sequence of changes a tenant makes (with a token, then
 * with one of its API keys) and the operator makes, each read back as its entry with the actor and
 * the request id the answer carried; another tenant sees none of them; the operator sees them all.
 * The transaction rule (no change without its entry and the reverse) is proved per store in the
 * conformance suite (`@pinfold/conformance` event-records).
 */

interface WireEvent {
  id: string
  seq: number
  tenant_id: string
  type: string
  actor: { kind: string; id: string }
  request_id: string | null
  target: { kind: string; id: string }
  data: Record<string, unknown>
  at: string
}

let server: TestApi
let operator: string
const tenant = `audit-${crypto.randomUUID().slice(0, 8)}`
const other = `${tenant}-other`

beforeAll(async () => {
  server = await startTestApi({ embedder: null })
  operator = await mintOperatorToken(TEST_SECRET, { sub: 'ops-alice', expiresIn: '1h' })
})
afterAll(() => server?.close())

/** A request as the tenant, with a request id of the test's choosing; answers the body and the id echoed. */
async function call(path: string, init: { method?: string; body?: unknown; requestId: string; auth?: string }) {
  const res = await server.api(path, {
    method: init.method ?? 'GET',
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    headers: { 'x-request-id': init.requestId },
    auth: init.auth ?? (await server.token({ org: tenant, sub: 'alice' })),
  })
  expect(res.headers.get('x-request-id')).toBe(init.requestId)
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

async function events(query = '', auth?: string): Promise<{ status: number; events: WireEvent[]; next: string }> {
  const res = await server.api(`/v3/audit/events${query}`, { auth: auth ?? (await server.token({ org: tenant })) })
  const body = (await res.json()) as { data?: { events: WireEvent[]; next_page_token: string } }
  return { status: res.status, events: body.data?.events ?? [], next: body.data?.next_page_token ?? '' }
}

async function adminEvents(query: string) {
  const res = await server.api(`/admin/v1/events${query}`, { auth: operator })
  const body = (await res.json()) as { data?: { events: WireEvent[]; next_page_token: string }; error?: string }
  return { status: res.status, events: body.data?.events ?? [], error: body.error }
}

describe('audit log over HTTP', () => {
  let fileId: string
  let cid: string
  let keyId: string

  it('a tenant’s changes are recorded in order, each with its actor, request id and target', async () => {
    const token = await server.token({ org: tenant, sub: 'alice' })
    const uploadRes = await server.api('/v3/files', {
      method: 'POST',
      body: (() => {
        const form = new FormData()
        form.append('file', new File(['audited bytes'], 'report.txt', { type: 'text/plain' }))
        form.append('network', 'public')
        return form
      })(),
      headers: { 'x-request-id': 'req-upload' },
      auth: token,
    })
    expect(uploadRes.status).toBe(200)
    const uploaded = ((await uploadRes.json()) as { data: { id: string; cid: string } }).data
    fileId = uploaded.id
    cid = uploaded.cid

    expect(
      (
        await call(`/v3/files/public/${fileId}`, {
          method: 'PUT',
          body: { name: 'renamed.txt' },
          requestId: 'req-rename',
        })
      ).status,
    ).toBe(200)
    const group = await call('/v3/groups/public', { method: 'POST', body: { name: 'reports' }, requestId: 'req-group' })
    expect(group.status).toBe(200)
    const groupId = group.body.data.id as string
    expect(
      (await call(`/v3/groups/public/${groupId}/ids/${fileId}`, { method: 'PUT', requestId: 'req-move' })).status,
    ).toBe(200)
    const key = await call('/v3/pinata/keys', {
      method: 'POST',
      body: { keyName: 'ci', permissions: { admin: true } },
      requestId: 'req-key',
    })
    expect(key.status).toBe(200)

    // the same tenant through its new API key: the key is the actor
    const byKey = await upload(server, { bytes: 'uploaded with a key', name: 'k.txt' }, {}, key.body.JWT)
    expect(byKey.status).toBe(200)
    expect(
      (await call(`/v3/pinata/keys/${key.body.pinata_api_key}`, { method: 'PUT', requestId: 'req-revoke' })).status,
    ).toBe(200)
    expect((await call(`/v3/groups/public/${groupId}`, { method: 'DELETE', requestId: 'req-ungroup' })).status).toBe(
      200,
    )
    expect((await call(`/v3/files/public/${fileId}`, { method: 'DELETE', requestId: 'req-delete' })).status).toBe(200)

    const { status, events: log } = await events('?order=asc')
    expect(status).toBe(200)
    expect(log.map((e) => [e.type, e.request_id])).toEqual([
      ['file.created', 'req-upload'],
      ['file.updated', 'req-rename'],
      ['group.created', 'req-group'],
      ['file.updated', 'req-move'],
      ['key.created', 'req-key'],
      ['file.created', expect.any(String)],
      ['key.revoked', 'req-revoke'],
      ['group.deleted', 'req-ungroup'],
      ['file.deleted', 'req-delete'],
    ])
    const [created, renamed, , moved, keyCreated, keyUpload, revoked, , deleted] = log
    expect(created).toMatchObject({
      tenant_id: tenant,
      actor: { kind: 'user', id: 'alice' },
      target: { kind: 'file', id: fileId },
      data: { cid, name: 'report.txt', network: 'public' },
    })
    expect(renamed!.data).toEqual({ name: 'renamed.txt' })
    expect(moved!.data).toEqual({ groupId, network: 'public' })
    keyId = keyCreated!.target.id
    expect(keyCreated).toMatchObject({ target: { kind: 'key' }, data: { key: key.body.pinata_api_key, name: 'ci' } })
    // never a secret: not the key's secret, not its JWT
    expect(JSON.stringify(log)).not.toContain(key.body.pinata_api_secret)
    expect(JSON.stringify(log)).not.toContain(key.body.JWT)
    expect(keyUpload).toMatchObject({ actor: { kind: 'key', id: keyId }, data: { name: 'k.txt' } })
    expect(revoked).toMatchObject({ target: { kind: 'key', id: keyId } })
    expect(deleted).toMatchObject({ target: { kind: 'file', id: fileId }, data: { cid } })
    expect(log.map((e) => e.seq)).toEqual([...log.map((e) => e.seq)].sort((a, b) => a - b))
    expect(new Set(log.map((e) => e.id)).size).toBe(log.length)
  })

  it('filters by type and time, pages newest first by token, and refuses bad filters with 400', async () => {
    const all = (await events()).events
    expect(all.map((e) => e.type)[0]).toBe('file.deleted')
    const files = await events('?type=file.created,file.deleted')
    expect(files.events.map((e) => e.type)).toEqual(['file.deleted', 'file.created', 'file.created'])
    const first = await events('?limit=4')
    expect(first.events).toEqual(all.slice(0, 4))
    const second = await events(`?limit=4&pageToken=${first.next}`)
    expect(second.events).toEqual(all.slice(4, 8))
    expect((await events(`?limit=4&pageToken=${second.next}`)).next).toBe('')
    const future = new Date(Date.now() + 60_000).toISOString()
    expect((await events(`?from=${future}`)).events).toEqual([])
    expect((await events(`?to=${future}`)).events).toHaveLength(all.length)
    for (const bad of [
      '?type=File%20Created',
      '?from=yesterday',
      '?limit=0',
      '?pageToken=abc',
      `?from=${future}&to=2020-01-01T00:00:00Z`,
    ]) {
      const res = await server.api(`/v3/audit/events${bad}`, { auth: await server.token({ org: tenant }) })
      expect(res.status, bad).toBe(400)
      expect(((await res.json()) as { error: string }).error, bad).toEqual(expect.any(String))
    }
  })

  it('another tenant sees none of them, and its own changes only', async () => {
    const token = await server.token({ org: other })
    expect((await events('', token)).events).toEqual([])
    await upload(server, { bytes: 'other tenant', name: 'o.txt' }, {}, token)
    const own = (await events('', token)).events
    expect(own.map((e) => [e.tenant_id, e.type])).toEqual([[other, 'file.created']])
  })

  it('limits set by the operator and the refusals they cause are recorded, the refusals once a minute', async () => {
    const limited = `${tenant}-limited`
    const token = await server.token({ org: limited })
    expect((await upload(server, { bytes: 'the one file allowed' }, {}, token)).status).toBe(200)
    const set = await server.api(`/admin/v1/tenants/${limited}/limits`, {
      method: 'PUT',
      body: JSON.stringify({ files: 1 }),
      headers: { 'x-request-id': 'req-limits' },
      auth: operator,
    })
    expect(set.status).toBe(200)
    for (const bytes of ['refused once', 'refused twice']) {
      const refused = await upload(server, { bytes }, {}, token)
      expect(refused.status).toBe(403)
    }
    const log = (await events('?order=asc', token)).events
    expect(log.map((e) => e.type)).toEqual(['file.created', 'tenant.limits_set', 'quota.reached'])
    expect(log[1]).toMatchObject({
      actor: { kind: 'operator', id: 'ops-alice' },
      request_id: 'req-limits',
      data: { limits: { files: 1 } },
    })
    expect(log[2]).toMatchObject({ actor: { kind: 'user', id: 'alice' }, data: { limit: 'file' } })
  })

  it('the operator sees every tenant’s, its own actions included, and the deployment’s deny rules', async () => {
    const suspend = await server.api(`/admin/v1/tenants/${other}/suspend`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'audit test', hide_content: false }),
      headers: { 'x-request-id': 'req-suspend' },
      auth: operator,
    })
    expect(suspend.status).toBe(200)
    const rule = await server.api('/admin/v1/deny-rules', {
      method: 'POST',
      body: JSON.stringify({ rule: `/ipfs/${cid}` }),
      headers: { 'x-request-id': 'req-rule' },
      auth: operator,
    })
    expect(rule.status).toBe(201)
    const ruleId = ((await rule.json()) as { data: { id: string } }).data.id
    expect((await server.api(`/admin/v1/deny-rules/${ruleId}`, { method: 'DELETE', auth: operator })).status).toBe(200)

    const mine = await adminEvents(`?tenant=${tenant}&order=asc`)
    expect(mine.events.map((e) => e.type)).toEqual((await events('?order=asc')).events.map((e) => e.type))
    const theirs = await adminEvents(`?tenant=${other}`)
    expect(theirs.events[0]).toMatchObject({
      type: 'tenant.suspended',
      actor: { kind: 'operator', id: 'ops-alice' },
      request_id: 'req-suspend',
      target: { kind: 'tenant', id: other },
      data: { reason: 'audit test', hideContent: false },
    })
    // deny rules belong to no tenant: the deployment's own events (`tenant=` empty)
    const deployment = await adminEvents('?tenant=&type=deny_rule.added,deny_rule.removed&order=asc')
    expect(deployment.events.map((e) => [e.type, e.target.id, e.actor.kind])).toEqual([
      ['deny_rule.added', ruleId, 'operator'],
      ['deny_rule.removed', ruleId, 'operator'],
    ])
    expect(deployment.events[0]!.request_id).toBe('req-rule')
    const everyone = await adminEvents('?limit=1000')
    expect(everyone.events.map((e) => e.tenant_id)).toEqual(expect.arrayContaining([tenant, other, '']))
    expect((await adminEvents('?type=nope')).status).toBe(400)
    // a tenant asking for the operator's view finds no such path
    expect((await server.api('/admin/v1/events', { auth: await server.token({ org: tenant }) })).status).toBe(404)
  })
})
