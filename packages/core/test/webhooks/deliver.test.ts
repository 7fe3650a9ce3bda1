import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { DEPLOYMENT_TENANT_ID } from '@pinfold/interface'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import {
  createFileService,
  retryDelayMs,
  type WebhookCaller,
  type WebhookPost,
  type WebhookPostResult,
  type WebhookTransport,
} from '../../src/index.js'

/**
 * deliverNext's decisions, with a transport that records what it is handed and answers as the
 * test says, and a clock the test moves: the signature, the retry schedule, giving up, and what a
 * refused address does. (Real HTTP and address checks: packages/server/test/webhooks*.test.ts.)
 */

const ACME: WebhookCaller = { kind: 'tenant', actor: { tenantId: 'acme', userId: 'alice' } }
const OTHER: WebhookCaller = { kind: 'tenant', actor: { tenantId: 'other', userId: 'mallory' } }

function recordingTransport(answer: (attempt: number) => WebhookPostResult) {
  const posts: WebhookPost[] = []
  const transport: WebhookTransport = {
    check: async () => ({ kind: 'allowed' }),
    post: async (request) => {
      posts.push(request)
      return answer(posts.length)
    },
  }
  return { transport, posts }
}

function setup(answer: (attempt: number) => WebhookPostResult, maxAttempts = 3) {
  // from the real time: the verifying library accepts a timestamp within minutes of its own clock
  let now = Date.now()
  const { transport, posts } = recordingTransport(answer)
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    clock: { now: () => new Date(now) },
    webhookTransport: transport,
    webhooks: { maxAttempts, backoff: { baseMs: 1_000, maxMs: 3_000 }, timeoutMs: 500, maxResponseBytes: 100 },
  })
  return {
    service,
    posts,
    advance: (ms: number) => {
      now += ms
    },
  }
}

describe('webhook delivery', () => {
  it('retryDelayMs - doubles from the base, capped, with up to half of each step random', () => {
    const backoff = { baseMs: 1_000, maxMs: 5_000 }
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, backoff, () => 0))).toEqual([500, 1_000, 2_000, 2_500, 2_500])
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, backoff, () => 1))).toEqual([1_000, 2_000, 4_000, 5_000, 5_000])
  })

  it('deliverNext - signs the body with the endpoint secret, the event id as webhook-id, within the bounds', async () => {
    const { service, posts } = setup(() => ({ kind: 'answered', status: 200 }))
    const { endpoint, secret } = await service.webhooks.create(ACME, {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    const queued = await service.webhooks.test(ACME, endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    const [post] = posts
    expect(post).toMatchObject({ url: 'https://hooks.example.com/in', timeoutMs: 500, maxResponseBytes: 100 })
    expect(post!.headers['webhook-id']).toBe(queued.eventId)
    const verified = new Webhook(secret).verify(post!.body, post!.headers) as { type: string }
    expect(verified.type).toBe('webhook.test')
    const { items } = await service.webhooks.deliveries(ACME, endpoint.id, {})
    expect(items[0]).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, nextAttemptAt: null })
  })

  it('deliverNext - a failure is retried after the backoff, and after maxAttempts the delivery is failed', async () => {
    const { service, posts, advance } = setup((n) =>
      n === 2 ? { kind: 'unreachable', reason: 'ECONNREFUSED: connect' } : { kind: 'answered', status: 503 },
    )
    const { endpoint } = await service.webhooks.create(ACME, {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    await service.webhooks.test(ACME, endpoint.id)
    const state = async () => (await service.webhooks.deliveries(ACME, endpoint.id, {})).items[0]!
    expect(await service.webhooks.deliverNext()).toBe(true)
    expect(await state()).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503 })
    // not due before its backoff (at least half of the 1 s step)
    expect(await service.webhooks.deliverNext()).toBe(false)
    advance(1_000)
    expect(await service.webhooks.deliverNext()).toBe(true)
    expect(await state()).toMatchObject({
      status: 'pending',
      attempts: 2,
      lastStatusCode: null,
      lastError: 'ECONNREFUSED: connect',
    })
    advance(2_000)
    expect(await service.webhooks.deliverNext()).toBe(true)
    expect(await state()).toMatchObject({ status: 'failed', attempts: 3, lastStatusCode: 503, nextAttemptAt: null })
    advance(60_000)
    expect(await service.webhooks.deliverNext()).toBe(false)
    expect(posts).toHaveLength(3)
    // every attempt carries the same webhook-id
    expect(new Set(posts.map((p) => p.headers['webhook-id'])).size).toBe(1)
  })

  it('deliverNext - a refused address fails the delivery at once, its reason kept', async () => {
    const { service } = setup(() => ({
      kind: 'refused',
      reason: 'hooks.example.com resolves to 10.0.0.1, a private address',
    }))
    const { endpoint } = await service.webhooks.create(ACME, {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    await service.webhooks.test(ACME, endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    const { items } = await service.webhooks.deliveries(ACME, endpoint.id, {})
    expect(items[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'hooks.example.com resolves to 10.0.0.1, a private address',
    })
  })

  it('deliverNext - aborted mid-attempt (the process stops), it gives the delivery back, due at once, the attempt uncounted', async () => {
    const records = createMemoryRecordStore()
    const transport: WebhookTransport = {
      check: async () => ({ kind: 'allowed' }),
      post: (_request, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(options.signal!.reason), { once: true })
        }),
    }
    const service = createFileService({ records, blobs: createMemoryBlobStore(), webhookTransport: transport })
    const { endpoint } = await service.webhooks.create(ACME, {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    await service.webhooks.test(ACME, endpoint.id)
    const stop = new AbortController()
    const running = service.webhooks.deliverNext({ signal: stop.signal })
    await new Promise((resolve) => setTimeout(resolve, 20))
    stop.abort(new Error('shutting down'))
    await expect(running).rejects.toThrow('shutting down')
    const { items } = await service.webhooks.deliveries(ACME, endpoint.id, {})
    expect(items[0]).toMatchObject({ status: 'pending', attempts: 0 })
    expect(await records.webhooks.claimWebhookDelivery('next', new Date(), 60_000)).toMatchObject({ attempts: 1 })
  })

  it('prune - ended deliveries past the retention go; a pending one stays', async () => {
    const { service, advance } = setup((n) =>
      n === 1 ? { kind: 'answered', status: 204 } : { kind: 'answered', status: 500 },
    )
    const { endpoint } = await service.webhooks.create(ACME, {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    await service.webhooks.test(ACME, endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    await service.webhooks.test(ACME, endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    const statuses = async () => (await service.webhooks.deliveries(ACME, endpoint.id, {})).items.map((d) => d.status)
    expect((await statuses()).sort()).toEqual(['delivered', 'pending'])
    expect(await service.webhooks.prune()).toBe(0)
    advance(30 * 24 * 60 * 60_000 + 1)
    expect(await service.webhooks.prune()).toBe(1)
    expect(await statuses()).toEqual(['pending'])
  })

  it('webhooks - without a transport every operation is UNAVAILABLE', async () => {
    const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
    expect(service.features.webhooks).toBe(false)
    await expect(
      service.webhooks.create(ACME, { url: 'https://hooks.example.com/in', eventTypes: ['file.created'] }),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' })
    await expect(service.webhooks.deliverNext()).rejects.toMatchObject({ code: 'UNAVAILABLE' })
  })
})

/**
 * An endpoint's state beyond on/off: disabled automatically once every attempt has failed for
 * `disableAfterMs` (with its audit entry, its queued deliveries held until it is enabled again),
 * and secret rotation, during whose grace period each delivery carries a signature by either
 * secret, as the `standardwebhooks` library verifies them.
 */

const DAY = 24 * 60 * 60_000

function setupState(answer: () => WebhookPostResult, webhooks: Record<string, number> = {}) {
  // from the real time: the verifying library accepts a timestamp within minutes of its own clock
  let now = Date.now()
  const posts: WebhookPost[] = []
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    clock: { now: () => new Date(now) },
    webhookTransport: {
      check: async () => ({ kind: 'allowed' }),
      post: async (request) => {
        posts.push(request)
        return answer()
      },
    },
    webhooks: { maxAttempts: 3, backoff: { baseMs: DAY, maxMs: DAY }, ...webhooks },
  })
  return { service, posts, advance: (ms: number) => (now += ms) }
}

describe('webhook endpoint state', () => {
  it('deliverNext - every attempt failing for disableAfterMs disables the endpoint, recorded; re-enabled, it is sent again', async () => {
    let status = 503
    const { service, posts, advance } = setupState(() => ({ kind: 'answered', status }), { disableAfterMs: 2 * DAY })
    const { endpoint } = await service.webhooks.create(ACME, {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    await service.webhooks.test(ACME, endpoint.id)
    const state = () => service.webhooks.get(ACME, endpoint.id)

    expect(await service.webhooks.deliverNext()).toBe(true)
    const failingSince = (await state()).failingSince
    expect(failingSince).toBeInstanceOf(Date)
    expect((await state()).enabled).toBe(true)
    // the retry a day later fails too: failing for one day, not yet two
    advance(DAY)
    expect(await service.webhooks.deliverNext()).toBe(true)
    expect((await state()).enabled).toBe(true)
    // a second test event is queued meanwhile; both are now due
    await service.webhooks.test(ACME, endpoint.id)
    advance(DAY)
    expect(await service.webhooks.deliverNext()).toBe(true)
    const disabled = await state()
    expect(disabled).toMatchObject({ enabled: false, failingSince, disabledAt: expect.any(Date) })
    expect(disabled.disabledReason).toBe('every attempt failed for 2 days (the last: the endpoint answered HTTP 503)')

    // nothing more is attempted while it is disabled
    const sent = posts.length
    advance(DAY)
    expect(await service.webhooks.deliverNext()).toBe(false)
    expect(posts).toHaveLength(sent)

    const { events } = await service.events.listAll({ operatorId: 'ops' }, { types: ['endpoint.disabled'] })
    expect(events).toMatchObject([
      {
        tenantId: 'acme',
        actor: { kind: 'system', id: 'webhooks' },
        target: { kind: 'webhook', id: endpoint.id },
        data: { url: 'https://hooks.example.com/in', reason: disabled.disabledReason },
      },
    ])

    // the owner enables it again: its streak starts over and the held delivery is sent
    status = 200
    expect(await service.webhooks.update(ACME, endpoint.id, { enabled: true })).toMatchObject({
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    })
    expect(await service.webhooks.deliverNext()).toBe(true)
    expect(posts).toHaveLength(sent + 1)
    expect((await state()).failingSince).toBeNull()
  })

  it('deliverNext - a delivered attempt ends the streak; disableAfterMs 0 never disables', async () => {
    let status = 500
    const { service, advance } = setupState(() => ({ kind: 'answered', status }), { disableAfterMs: 0 })
    const { endpoint } = await service.webhooks.create(ACME, {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    await service.webhooks.test(ACME, endpoint.id)
    for (let i = 0; i < 3; i++) {
      expect(await service.webhooks.deliverNext()).toBe(true)
      advance(30 * DAY)
    }
    expect(await service.webhooks.get(ACME, endpoint.id)).toMatchObject({ enabled: true })
    status = 204
    await service.webhooks.test(ACME, endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    expect((await service.webhooks.get(ACME, endpoint.id)).failingSince).toBeNull()
  })

  it('rotateSecret - a new secret, shown once; in the grace period either secret verifies a delivery, then only the new one', async () => {
    const { service, posts, advance } = setupState(() => ({ kind: 'answered', status: 200 }), { secretGraceMs: 60_000 })
    const { endpoint, secret: old } = await service.webhooks.create(ACME, {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    const rotated = await service.webhooks.rotateSecret(ACME, endpoint.id)
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(old)
    expect(rotated.endpoint).not.toHaveProperty('secret')
    expect(rotated.endpoint).not.toHaveProperty('previousSecret')
    expect(rotated.endpoint.previousSecretExpiresAt).toBeInstanceOf(Date)
    await expect(service.webhooks.rotateSecret(OTHER, endpoint.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })

    await service.webhooks.test(ACME, endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    const during = posts.at(-1)!
    expect(during.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/)
    for (const secret of [old, rotated.secret]) {
      expect(new Webhook(secret).verify(during.body, during.headers)).toMatchObject({ type: 'webhook.test' })
    }

    advance(60_001)
    await service.webhooks.test(ACME, endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    const after = posts.at(-1)!
    expect(after.headers['webhook-signature']).toMatch(/^v1,\S+$/)
    expect(new Webhook(rotated.secret).verify(after.body, after.headers)).toMatchObject({ type: 'webhook.test' })
    expect(() => new Webhook(old).verify(after.body, after.headers)).toThrow()
  })
})

describe('webhook endpoints in the audit log', () => {
  const url = 'https://hooks.example.com/in'
  const ops = { operatorId: 'ops-alice', requestId: 'req-ops' }

  async function setupAudit() {
    const records = createMemoryRecordStore()
    const { transport } = recordingTransport(() => ({ kind: 'answered', status: 200 }))
    const service = createFileService({ records, blobs: createMemoryBlobStore(), webhookTransport: transport })
    await records.tenants.registerTenant({ id: 'acme', createdAt: new Date(), origin: 'admin', suspension: null })
    const log = async (tenantId: string) => (await service.events.listAll(ops, { tenantId, order: 'asc' })).events
    return { service, log }
  }

  it('create, update, disable, enable, rotate, delete - one entry each, naming the key and request, never a secret', async () => {
    const { service, log } = await setupAudit()
    const viaKey = (requestId: string): WebhookCaller => ({
      kind: 'tenant',
      actor: { tenantId: 'acme', userId: 'alice', keyId: 'key-1', requestId },
    })
    const { endpoint, secret } = await service.webhooks.create(viaKey('r1'), { url, eventTypes: ['file.created'] })
    await service.webhooks.update(viaKey('r2'), endpoint.id, { description: 'billing', eventTypes: ['pin.failed'] })
    await service.webhooks.update(viaKey('r3'), endpoint.id, { enabled: false })
    await service.webhooks.update(viaKey('r4'), endpoint.id, { enabled: true })
    const rotated = await service.webhooks.rotateSecret(viaKey('r5'), endpoint.id)
    await service.webhooks.remove(viaKey('r6'), endpoint.id)

    const events = await log('acme')
    const target = { kind: 'webhook', id: endpoint.id }
    const actor = { kind: 'key', id: 'key-1' }
    expect(events).toMatchObject([
      { type: 'endpoint.created', requestId: 'r1', actor, target, data: { url, eventTypes: ['file.created'] } },
      { type: 'endpoint.updated', requestId: 'r2', actor, target },
      { type: 'endpoint.disabled', requestId: 'r3', actor, target, data: { url, reason: 'disabled by its owner' } },
      { type: 'endpoint.enabled', requestId: 'r4', actor, target, data: { url } },
      { type: 'endpoint.secret_rotated', requestId: 'r5', actor, target },
      { type: 'endpoint.deleted', requestId: 'r6', actor, target, data: { url } },
    ])
    // the fields given, and only those
    expect(events[1]!.data).toEqual({ description: 'billing', eventTypes: ['pin.failed'] })
    const written = JSON.stringify(events)
    for (const s of [secret, rotated.secret]) expect(written).not.toContain(s.slice('whsec_'.length))
    expect(written).not.toContain('whsec_')
  })

  it('update - giving the state it has, or nothing, writes nothing and records nothing', async () => {
    const { service, log } = await setupAudit()
    const { endpoint } = await service.webhooks.create(ACME, { url, eventTypes: ['file.created'] })
    expect(await service.webhooks.update(ACME, endpoint.id, { enabled: true })).toEqual(endpoint)
    expect(await service.webhooks.update(ACME, endpoint.id, {})).toEqual(endpoint)
    expect((await log('acme')).map((e) => e.type)).toEqual(['endpoint.created'])
    // a refused change (another tenant's id, a bad URL) records nothing either
    await expect(service.webhooks.update(OTHER, endpoint.id, { enabled: false })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(service.webhooks.remove(OTHER, endpoint.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(service.webhooks.update(ACME, endpoint.id, { url: 'ftp://x' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    expect((await log('acme')).map((e) => e.type)).toEqual(['endpoint.created'])
    expect((await log('other')).map((e) => e.type)).toEqual([])
  })

  it('operator on a tenant - lists its endpoints, disables with a reason and enables, recorded in the tenant’s log', async () => {
    const { service, log } = await setupAudit()
    const { endpoint } = await service.webhooks.create(ACME, { url, eventTypes: ['file.created'] })
    const onAcme: WebhookCaller = { kind: 'operator', operator: ops, tenantId: 'acme' }

    expect((await service.webhooks.list(onAcme, {})).items.map((e) => e.id)).toEqual([endpoint.id])
    const disabled = await service.webhooks.update(onAcme, endpoint.id, { enabled: false, reason: 'spamming' })
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'disabled by the operator: spamming' })
    // the tenant sees it so; the operator enables it again
    expect(await service.webhooks.get(ACME, endpoint.id)).toMatchObject({ enabled: false })
    expect(await service.webhooks.update(onAcme, endpoint.id, { enabled: true })).toMatchObject({
      enabled: true,
      disabledReason: null,
    })
    const operator = { kind: 'operator', id: 'ops-alice' }
    expect((await log('acme')).slice(1)).toMatchObject([
      {
        type: 'endpoint.disabled',
        actor: operator,
        requestId: 'req-ops',
        data: { url, reason: disabled.disabledReason },
      },
      { type: 'endpoint.enabled', actor: operator, requestId: 'req-ops', target: { kind: 'webhook', id: endpoint.id } },
    ])

    // another tenant's id, a tenant the registry does not know, and a bad reason are refused
    const onGlobex: WebhookCaller = { kind: 'operator', operator: ops, tenantId: 'globex' }
    await expect(service.webhooks.list(onGlobex, {})).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const { endpoint: own } = await service.webhooks.create(
      { kind: 'operator', operator: ops, tenantId: null },
      { url, eventTypes: ['file.created'] },
    )
    await expect(service.webhooks.update(onAcme, own.id, { enabled: false })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(
      service.webhooks.update(onAcme, endpoint.id, { enabled: false, reason: 'x'.repeat(501) }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await service.webhooks.get(ACME, endpoint.id)).toMatchObject({ enabled: true })
  })

  it('the operator’s own endpoints - recorded under no tenant, with the operator as actor', async () => {
    const { service, log } = await setupAudit()
    const own: WebhookCaller = { kind: 'operator', operator: ops, tenantId: null }
    const { endpoint } = await service.webhooks.create(own, { url, eventTypes: ['file.created'] })
    await service.webhooks.update(own, endpoint.id, { enabled: false })
    expect(await log(DEPLOYMENT_TENANT_ID)).toMatchObject([
      { type: 'endpoint.created', actor: { kind: 'operator', id: 'ops-alice' }, requestId: 'req-ops' },
      { type: 'endpoint.disabled', data: { reason: 'disabled by its owner' } },
    ])
    expect(await log('acme')).toEqual([])
  })
})
