import { randomUUID } from 'node:crypto'
import type { PageRequest, RecordStore, WebhookDeliveryRecord, WebhookEndpointRecord } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { MALFORMED_EVENT, newEvent } from './event-records.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second))
const LEASE_MS = 30_000
const firstPage: PageRequest = { limit: 100, order: 'ASC' }

export function newWebhookEndpoint(fields: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord {
  return {
    id: randomUUID(),
    tenantId: 'tenant-a',
    url: 'https://hooks.example.com/in',
    eventTypes: ['file.created', 'file.deleted'],
    description: 'ci',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    previousSecret: null,
    previousSecretExpiresAt: null,
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  }
}

function newDelivery(
  endpoint: WebhookEndpointRecord,
  fields: Partial<WebhookDeliveryRecord> = {},
): WebhookDeliveryRecord {
  const eventId = randomUUID()
  return {
    id: randomUUID(),
    endpointId: endpoint.id,
    tenantId: endpoint.tenantId,
    event: {
      id: eventId,
      type: 'file.created',
      tenantId: endpoint.tenantId ?? 'tenant-a',
      at: at(0),
      actor: { kind: 'key', id: 'key-1' },
      requestId: 'req-1',
      target: { kind: 'file', id: 'file-1' },
      data: { name: 'a.txt', size: 3 },
    },
    status: 'pending',
    attempts: 0,
    nextAttemptAt: at(0),
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    createdAt: at(0),
    ...fields,
  }
}

/** The WebhookRecordStore contract: endpoints scoped to their owner, and the leased, fair outbox. */
export function describeWebhookRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`WebhookRecordStore conformance: ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    it('createWebhookEndpoint - stores it as given, scoped to its owner; a reused id is a CONFLICT', async () => {
      const mine = newWebhookEndpoint()
      const operator = newWebhookEndpoint({ tenantId: null, eventTypes: ['content.blocked'] })
      await store.webhooks.createWebhookEndpoint(mine)
      await store.webhooks.createWebhookEndpoint(operator)
      expect(await store.webhooks.getWebhookEndpoint('tenant-a', mine.id)).toEqual(mine)
      expect(await store.webhooks.getWebhookEndpoint(null, operator.id)).toEqual(operator)
      expect(await store.webhooks.getWebhookEndpoint('tenant-b', mine.id)).toBeUndefined()
      expect(await store.webhooks.getWebhookEndpoint(null, mine.id)).toBeUndefined()
      expect(await store.webhooks.getWebhookEndpoint('tenant-a', operator.id)).toBeUndefined()
      expect(await store.webhooks.getWebhookEndpoint('tenant-a', 'not-an-id')).toBeUndefined()
      await expect(store.webhooks.createWebhookEndpoint({ ...mine, url: 'https://x.example' })).rejects.toMatchObject({
        code: 'CONFLICT',
      })
      const listed = await store.webhooks.listWebhookEndpoints('tenant-a', firstPage)
      expect(listed).toEqual({ items: [mine], hasMore: false })
      expect((await store.webhooks.listWebhookEndpoints(null, firstPage)).items).toEqual([operator])
    })

    it('createWebhookEndpoint - of concurrent creates past maxPerOwner exactly the cap are stored', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () => store.webhooks.createWebhookEndpoint(newWebhookEndpoint(), { maxPerOwner: 2 })),
      )
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2)
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'RATE_LIMITED' })
      }
      await store.webhooks.createWebhookEndpoint(newWebhookEndpoint({ tenantId: 'tenant-b' }), { maxPerOwner: 2 })
    })

    it("updateWebhookEndpoint / deleteWebhookEndpoint - change only the owner's, and a delete takes the deliveries", async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint)
      await store.webhooks.addWebhookDelivery(newDelivery(endpoint))
      expect(await store.webhooks.updateWebhookEndpoint('tenant-b', endpoint.id, { enabled: false }, at(5))).toBe(
        undefined,
      )
      const updated = await store.webhooks.updateWebhookEndpoint(
        'tenant-a',
        endpoint.id,
        { enabled: false, eventTypes: ['pin.failed'] },
        at(5),
      )
      expect(updated).toEqual({
        ...endpoint,
        enabled: false,
        disabledAt: at(5),
        disabledReason: 'disabled by its owner',
        eventTypes: ['pin.failed'],
        updatedAt: at(5),
      })
      expect(await store.webhooks.deleteWebhookEndpoint('tenant-b', endpoint.id)).toBe(false)
      expect(await store.webhooks.deleteWebhookEndpoint('tenant-a', endpoint.id)).toBe(true)
      expect(await store.webhooks.getWebhookEndpoint('tenant-a', endpoint.id)).toBeUndefined()
      expect(await store.webhooks.claimWebhookDelivery('w', at(10), LEASE_MS)).toBeUndefined()
    })

    it('addWebhookDelivery / listWebhookDeliveries - an event once per endpoint, listed to its owner only', async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint)
      const first = newDelivery(endpoint, { createdAt: at(1) })
      const second = newDelivery(endpoint, { createdAt: at(2) })
      await store.webhooks.addWebhookDelivery(second)
      await store.webhooks.addWebhookDelivery(first)
      await expect(
        store.webhooks.addWebhookDelivery({ ...newDelivery(endpoint), event: first.event }),
      ).rejects.toMatchObject({ code: 'CONFLICT' })
      const page = await store.webhooks.listWebhookDeliveries('tenant-a', endpoint.id, { limit: 1, order: 'DESC' })
      expect(page).toEqual({ items: [second], hasMore: true })
      const next = await store.webhooks.listWebhookDeliveries('tenant-a', endpoint.id, {
        limit: 1,
        order: 'DESC',
        after: second,
      })
      expect(next).toEqual({ items: [first], hasMore: false })
      expect((await store.webhooks.listWebhookDeliveries('tenant-b', endpoint.id, firstPage)).items).toEqual([])
    })

    const event = (tenantId: string, type: string) => ({
      tenantId,
      type,
      actor: { kind: 'key' as const, id: 'key-1' },
      requestId: 'req-1',
      target: { kind: 'file', id: randomUUID() },
      data: { cid: 'bafy', size: 3 },
    })

    it("fanOutWebhookEvents - one pending delivery per enabled endpoint subscribed to the type: the tenant's and the operator's", async () => {
      const mine = newWebhookEndpoint({ eventTypes: ['file.created'] })
      const otherType = newWebhookEndpoint({ eventTypes: ['pin.failed'] })
      const disabled = newWebhookEndpoint({ enabled: false, eventTypes: ['file.created'] })
      const otherTenant = newWebhookEndpoint({ tenantId: 'tenant-b', eventTypes: ['file.created'] })
      const operator = newWebhookEndpoint({ tenantId: null, eventTypes: ['file.created', 'pin.failed'] })
      for (const e of [mine, otherType, disabled, otherTenant, operator]) await store.webhooks.createWebhookEndpoint(e)
      const [created] = await store.events.appendEvents([event('tenant-a', 'file.created')])
      expect(await store.webhooks.fanOutWebhookEvents(10, at(5))).toBe(1)
      expect(await store.webhooks.fanOutWebhookEvents(10, at(6))).toBe(0)
      const deliveriesOf = async (e: WebhookEndpointRecord) =>
        (await store.webhooks.listWebhookDeliveries(e.tenantId, e.id, firstPage)).items
      for (const e of [otherType, disabled, otherTenant]) expect(await deliveriesOf(e)).toEqual([])
      for (const e of [mine, operator]) {
        const [delivery, ...more] = await deliveriesOf(e)
        expect(more).toEqual([])
        expect(delivery).toMatchObject({
          endpointId: e.id,
          tenantId: e.tenantId,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: at(5),
          createdAt: at(5),
          event: {
            id: created!.id,
            type: 'file.created',
            tenantId: 'tenant-a',
            at: created!.at,
            actor: { kind: 'key', id: 'key-1' },
            requestId: 'req-1',
            target: created!.target,
            data: { cid: 'bafy', size: 3 },
          },
        })
      }
    })

    it('fanOutWebhookEvents - concurrent fan-outs put each (endpoint, event) in the outbox exactly once', async () => {
      const endpoints = [
        newWebhookEndpoint({ eventTypes: ['file.created'] }),
        newWebhookEndpoint({ eventTypes: ['file.created'] }),
        newWebhookEndpoint({ tenantId: null, eventTypes: ['file.created'] }),
      ]
      for (const e of endpoints) await store.webhooks.createWebhookEndpoint(e)
      const appended = await store.events.appendEvents(
        Array.from({ length: 25 }, () => event('tenant-a', 'file.created')),
      )
      let taken = 0
      for (let round = 0; round < 10 && taken < appended.length; round++) {
        const counts = await Promise.all(Array.from({ length: 6 }, () => store.webhooks.fanOutWebhookEvents(4, at(1))))
        taken += counts.reduce((a, b) => a + b, 0)
      }
      expect(taken).toBe(appended.length)
      for (const e of endpoints) {
        const { items } = await store.webhooks.listWebhookDeliveries(e.tenantId, e.id, firstPage)
        expect(items.map((d) => d.event.id).sort()).toEqual(appended.map((a) => a.id).sort())
      }
    })

    it('claimWebhookDelivery - each due delivery goes to exactly one of concurrent claimers; a future one waits', async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint)
      const due = [newDelivery(endpoint), newDelivery(endpoint)]
      for (const d of due) await store.webhooks.addWebhookDelivery(d)
      await store.webhooks.addWebhookDelivery(newDelivery(endpoint, { nextAttemptAt: at(100) }))
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.webhooks.claimWebhookDelivery(`w${i}`, at(10), LEASE_MS)),
      )
      const claimed = claims.filter((c) => c !== undefined)
      expect(claimed.map((c) => c.id).sort()).toEqual(due.map((d) => d.id).sort())
      for (const c of claimed) {
        expect(c).toMatchObject({
          status: 'delivering',
          attempts: 1,
          leaseExpiresAt: new Date(at(10).getTime() + LEASE_MS),
        })
      }
    })

    it('finishWebhookAttempt - records the answer; a retry is due again later; only the lease holder may finish', async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint)
      const delivery = newDelivery(endpoint)
      await store.webhooks.addWebhookDelivery(delivery)
      const held = (await store.webhooks.claimWebhookDelivery('w1', at(1), LEASE_MS))!
      const retry = { status: 'pending', statusCode: 500, error: 'HTTP 500', at: at(2), nextAttemptAt: at(20) } as const
      expect(await store.webhooks.finishWebhookAttempt(held.id, 'w2', retry)).toBe(false)
      expect(await store.webhooks.finishWebhookAttempt(held.id, 'w1', retry)).toBe(true)
      expect(await store.webhooks.claimWebhookDelivery('w1', at(19), LEASE_MS)).toBeUndefined()
      const again = (await store.webhooks.claimWebhookDelivery('w1', at(20), LEASE_MS))!
      expect(again).toMatchObject({ id: delivery.id, attempts: 2, lastStatusCode: 500, lastError: 'HTTP 500' })
      expect(
        await store.webhooks.finishWebhookAttempt(again.id, 'w1', { status: 'delivered', statusCode: 204, at: at(21) }),
      ).toBe(true)
      const [done] = (await store.webhooks.listWebhookDeliveries('tenant-a', endpoint.id, firstPage)).items
      expect(done).toMatchObject({
        status: 'delivered',
        attempts: 2,
        lastStatusCode: 204,
        lastError: null,
        lastAttemptAt: at(21),
        nextAttemptAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      })
      expect(await store.webhooks.claimWebhookDelivery('w1', at(100), LEASE_MS)).toBeUndefined()
    })

    it('claimWebhookDelivery - a crashed claim is taken over after its lease, and the old holder can no longer finish it', async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint)
      await store.webhooks.addWebhookDelivery(newDelivery(endpoint))
      const crashed = (await store.webhooks.claimWebhookDelivery('dead', at(0), LEASE_MS))!
      expect(await store.webhooks.claimWebhookDelivery('alive', at(29), LEASE_MS)).toBeUndefined()
      const taken = (await store.webhooks.claimWebhookDelivery('alive', at(30), LEASE_MS))!
      expect(taken).toMatchObject({ id: crashed.id, leaseOwner: 'alive', attempts: 2 })
      const late = { status: 'delivered', statusCode: 200, at: at(31) } as const
      expect(await store.webhooks.finishWebhookAttempt(crashed.id, 'dead', late)).toBe(false)
      expect(await store.webhooks.releaseWebhookDelivery(crashed.id, 'dead')).toBe(false)
      expect(await store.webhooks.releaseWebhookDelivery(crashed.id, 'alive')).toBe(true)
      expect(await store.webhooks.claimWebhookDelivery('next', at(31), LEASE_MS)).toMatchObject({
        id: crashed.id,
        attempts: 2,
      })
    })

    it('pruneWebhookDeliveries - deletes ended deliveries attempted before the time, oldest first, at most limit', async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint)
      const ended = (status: 'delivered' | 'failed', second: number) =>
        newDelivery(endpoint, { status, lastAttemptAt: at(second), nextAttemptAt: null, attempts: 1 })
      const old1 = ended('delivered', 1)
      const old2 = ended('failed', 2)
      const old3 = ended('delivered', 3)
      const recent = ended('delivered', 20)
      const waiting = newDelivery(endpoint, { lastAttemptAt: at(1), attempts: 1, nextAttemptAt: at(30) })
      for (const d of [old3, recent, old1, waiting, old2]) await store.webhooks.addWebhookDelivery(d)
      expect(await store.webhooks.pruneWebhookDeliveries(at(10), 2)).toBe(2)
      const left = async () =>
        (await store.webhooks.listWebhookDeliveries('tenant-a', endpoint.id, firstPage)).items.map((d) => d.id).sort()
      expect(await left()).toEqual([old3.id, recent.id, waiting.id].sort())
      expect(await store.webhooks.pruneWebhookDeliveries(at(10), 100)).toBe(1)
      expect(await left()).toEqual([recent.id, waiting.id].sort())
    })

    it('claimWebhookDelivery - owners take turns, and an endpoint at its cap does not hold the others back', async () => {
      const slow = newWebhookEndpoint({ tenantId: 'tenant-a' })
      const other = newWebhookEndpoint({ tenantId: 'tenant-b' })
      const operator = newWebhookEndpoint({ tenantId: null })
      for (const e of [slow, other, operator]) await store.webhooks.createWebhookEndpoint(e)
      // tenant a's backlog is older than everything else
      for (let i = 0; i < 5; i++) await store.webhooks.addWebhookDelivery(newDelivery(slow, { nextAttemptAt: at(i) }))
      await store.webhooks.addWebhookDelivery(newDelivery(other, { nextAttemptAt: at(8) }))
      await store.webhooks.addWebhookDelivery(newDelivery(operator, { nextAttemptAt: at(9) }))
      const options = { maxRunningPerEndpoint: 1 }
      const owners: Array<string | null> = []
      for (let i = 0; i < 4; i++) {
        const claimed = await store.webhooks.claimWebhookDelivery(`w${i}`, at(10), LEASE_MS, options)
        if (claimed) owners.push(claimed.tenantId)
      }
      // one of a's (its endpoint then at its cap), b's and the operator's; nothing more is claimable
      expect(owners).toEqual(['tenant-a', 'tenant-b', null])
      const tenantCapped = await store.webhooks.claimWebhookDelivery('w9', at(10), LEASE_MS, {
        maxRunningPerTenant: 1,
      })
      expect(tenantCapped).toBeUndefined()
    })

    it('updateWebhookEndpoint - disabling records when and why; enabling clears them and the failing streak', async () => {
      const endpoint = newWebhookEndpoint({ failingSince: at(1) })
      await store.webhooks.createWebhookEndpoint(endpoint)
      const off = { enabled: false, disabledReason: 'paused for maintenance' }
      expect(await store.webhooks.updateWebhookEndpoint('tenant-a', endpoint.id, off, at(5))).toMatchObject({
        enabled: false,
        disabledAt: at(5),
        disabledReason: 'paused for maintenance',
        failingSince: at(1),
      })
      // disabling again changes nothing: the first time and reason stay, and so does updatedAt
      expect(
        await store.webhooks.updateWebhookEndpoint('tenant-a', endpoint.id, { enabled: false }, at(6)),
      ).toMatchObject({ disabledAt: at(5), disabledReason: 'paused for maintenance', updatedAt: at(5) })
      expect(
        await store.webhooks.updateWebhookEndpoint('tenant-a', endpoint.id, { enabled: true }, at(7)),
      ).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null })
    })

    it('updateWebhookEndpoint - of concurrent identical toggles one changes the state and appends its state events; the rest answer the endpoint and append nothing', async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint)
      const toggle = (enabled: boolean, second: number) =>
        Promise.all(
          Array.from({ length: 4 }, () =>
            store.webhooks.updateWebhookEndpoint('tenant-a', endpoint.id, { enabled }, at(second), {
              stateEvents: [newEvent(enabled ? 'endpoint.enabled' : 'endpoint.disabled', endpoint.id)],
            }),
          ),
        )
      const disabled = await toggle(false, 5)
      // every call answers the endpoint as the one change left it (the same time and reason)
      for (const answer of disabled) {
        expect(answer).toMatchObject({ enabled: false, disabledAt: at(5), updatedAt: at(5) })
      }
      const enabled = await toggle(true, 6)
      for (const answer of enabled) expect(answer).toMatchObject({ enabled: true, disabledAt: null, updatedAt: at(6) })
      const { items } = await store.events.listEvents({}, { limit: 20, order: 'asc' })
      expect(items.filter((e) => e.target.id === endpoint.id).map((e) => e.type)).toEqual([
        'endpoint.disabled',
        'endpoint.enabled',
      ])
      // a patch with fields appends its events even when its toggle changes nothing; the state events stay out
      const renamed = await store.webhooks.updateWebhookEndpoint(
        'tenant-a',
        endpoint.id,
        { description: 'renamed', enabled: true },
        at(7),
        {
          events: [newEvent('endpoint.updated', endpoint.id)],
          stateEvents: [newEvent('endpoint.enabled', endpoint.id)],
        },
      )
      expect(renamed).toMatchObject({ description: 'renamed', enabled: true, updatedAt: at(7) })
      const after = await store.events.listEvents({}, { limit: 20, order: 'asc' })
      expect(after.items.filter((e) => e.target.id === endpoint.id).map((e) => e.type)).toEqual([
        'endpoint.disabled',
        'endpoint.enabled',
        'endpoint.updated',
      ])
    })

    it("finishWebhookAttempt - keeps the endpoint's failing streak: from its first failure until a delivery", async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint)
      for (let i = 0; i < 3; i++) await store.webhooks.addWebhookDelivery(newDelivery(endpoint))
      const failingSince = async () => (await store.webhooks.getWebhookEndpoint('tenant-a', endpoint.id))?.failingSince
      const attempt = async (second: number, outcome: 'failed' | 'pending' | 'delivered') => {
        const held = (await store.webhooks.claimWebhookDelivery('w', at(second), LEASE_MS))!
        const result =
          outcome === 'delivered'
            ? ({ status: 'delivered', statusCode: 200, at: at(second) } as const)
            : outcome === 'failed'
              ? ({ status: 'failed', statusCode: 500, error: 'HTTP 500', at: at(second) } as const)
              : ({
                  status: 'pending',
                  statusCode: null,
                  error: 'timeout',
                  at: at(second),
                  nextAttemptAt: at(90),
                } as const)
        expect(await store.webhooks.finishWebhookAttempt(held.id, 'w', result)).toBe(true)
      }
      await attempt(10, 'pending')
      expect(await failingSince()).toEqual(at(10))
      await attempt(11, 'failed')
      expect(await failingSince()).toEqual(at(10))
      await attempt(12, 'delivered')
      expect(await failingSince()).toBeNull()
    })

    it('disableFailingWebhookEndpoint - only one failing since the cutoff, once, with its events; its deliveries then wait', async () => {
      const endpoint = newWebhookEndpoint({ failingSince: at(10) })
      const healthy = newWebhookEndpoint()
      for (const e of [endpoint, healthy]) await store.webhooks.createWebhookEndpoint(e)
      await store.webhooks.addWebhookDelivery(newDelivery(endpoint))
      const disable = (failingBefore: Date) => ({ failingBefore, at: at(50), reason: 'failing for 5 days' })
      expect(await store.webhooks.disableFailingWebhookEndpoint(endpoint.id, disable(at(9)))).toBeUndefined()
      expect(await store.webhooks.disableFailingWebhookEndpoint(healthy.id, disable(at(40)))).toBeUndefined()
      await expect(
        store.webhooks.disableFailingWebhookEndpoint(endpoint.id, disable(at(40)), {
          events: [MALFORMED_EVENT('webhook')],
        }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      expect((await store.webhooks.getWebhookEndpoint('tenant-a', endpoint.id))?.enabled).toBe(true)
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          store.webhooks.disableFailingWebhookEndpoint(endpoint.id, disable(at(40)), {
            events: [newEvent('endpoint.disabled', endpoint.id)],
          }),
        ),
      )
      const disabled = results.filter((r) => r !== undefined)
      expect(disabled).toEqual([
        { ...endpoint, enabled: false, disabledAt: at(50), disabledReason: 'failing for 5 days', updatedAt: at(50) },
      ])
      const { items } = await store.events.listEvents({ types: ['endpoint.disabled'] }, { limit: 10, order: 'asc' })
      expect(items.map((e) => e.target.id)).toEqual([endpoint.id])
      // its queued delivery is not attempted while it is disabled, and is once it is enabled again
      expect(await store.webhooks.claimWebhookDelivery('w', at(60), LEASE_MS)).toBeUndefined()
      await store.webhooks.updateWebhookEndpoint('tenant-a', endpoint.id, { enabled: true }, at(61))
      expect(await store.webhooks.claimWebhookDelivery('w', at(62), LEASE_MS)).toMatchObject({
        endpointId: endpoint.id,
      })
    })

    it('updateWebhookEndpoint, rotateWebhookSecret, deleteWebhookEndpoint - another owner’s id appends nothing; the owner’s appends with the change', async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint, { events: [newEvent('endpoint.created', endpoint.id)] })
      const events = (type: string) => ({ events: [newEvent(type, endpoint.id)] })
      const next = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
      expect(
        await store.webhooks.updateWebhookEndpoint('tenant-b', endpoint.id, { enabled: false }, at(5), events('x.a')),
      ).toBeUndefined()
      expect(
        await store.webhooks.rotateWebhookSecret('tenant-b', endpoint.id, next, at(9), at(5), events('x.b')),
      ).toBeUndefined()
      expect(await store.webhooks.deleteWebhookEndpoint('tenant-b', endpoint.id, events('x.c'))).toBe(false)
      expect(await store.webhooks.getWebhookEndpoint('tenant-a', endpoint.id)).toEqual(endpoint)

      await store.webhooks.updateWebhookEndpoint(
        'tenant-a',
        endpoint.id,
        { enabled: false },
        at(5),
        events('endpoint.disabled'),
      )
      await store.webhooks.rotateWebhookSecret(
        'tenant-a',
        endpoint.id,
        next,
        at(9),
        at(6),
        events('endpoint.secret_rotated'),
      )
      expect(await store.webhooks.deleteWebhookEndpoint('tenant-a', endpoint.id, events('endpoint.deleted'))).toBe(true)
      const { items } = await store.events.listEvents({}, { limit: 10, order: 'asc' })
      expect(items.filter((e) => e.target.id === endpoint.id).map((e) => e.type)).toEqual([
        'endpoint.created',
        'endpoint.disabled',
        'endpoint.secret_rotated',
        'endpoint.deleted',
      ])
    })

    it('rotateWebhookSecret - the new secret signs, the replaced one is kept until the time given; owner-scoped', async () => {
      const endpoint = newWebhookEndpoint()
      await store.webhooks.createWebhookEndpoint(endpoint)
      const next = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
      expect(await store.webhooks.rotateWebhookSecret('tenant-b', endpoint.id, next, at(99), at(9))).toBeUndefined()
      expect(await store.webhooks.rotateWebhookSecret('tenant-a', 'not-an-id', next, at(99), at(9))).toBeUndefined()
      const rotated = await store.webhooks.rotateWebhookSecret('tenant-a', endpoint.id, next, at(99), at(9))
      expect(rotated).toEqual({
        ...endpoint,
        secret: next,
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: at(99),
        updatedAt: at(9),
      })
      const third = 'whsec_3mVfx7UyN9cjQaYPd0rWm6Ks2oTzLgHe'
      expect(await store.webhooks.rotateWebhookSecret('tenant-a', endpoint.id, third, at(120), at(10))).toMatchObject({
        secret: third,
        previousSecret: next,
        previousSecretExpiresAt: at(120),
      })
      expect(await store.webhooks.getWebhookEndpoint('tenant-a', endpoint.id)).toMatchObject({ secret: third })
    })
  })
}
