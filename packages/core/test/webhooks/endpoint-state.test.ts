import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { createFileService, type WebhookPost, type WebhookPostResult } from '../../src/index.js'

/**
 * An endpoint's state beyond on/off: disabled automatically once every attempt has failed for
 * `disableAfterMs` (with its audit entry, its queued deliveries held until it is enabled again),
 * and secret rotation, during whose grace period each delivery carries a signature by either
 * secret, as the `standardwebhooks` library verifies them.
 */

const DAY = 24 * 60 * 60_000

function setup(answer: () => WebhookPostResult, webhooks: Record<string, number> = {}) {
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
    const { service, posts, advance } = setup(() => ({ kind: 'answered', status }), { disableAfterMs: 2 * DAY })
    const { endpoint } = await service.webhooks.create('acme', {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    await service.webhooks.test('acme', endpoint.id)
    const state = () => service.webhooks.get('acme', endpoint.id)

    expect(await service.webhooks.deliverNext()).toBe(true)
    const failingSince = (await state()).failingSince
    expect(failingSince).toBeInstanceOf(Date)
    expect((await state()).enabled).toBe(true)
    // the retry a day later fails too: failing for one day, not yet two
    advance(DAY)
    expect(await service.webhooks.deliverNext()).toBe(true)
    expect((await state()).enabled).toBe(true)
    // a second test event is queued meanwhile; both are now due
    await service.webhooks.test('acme', endpoint.id)
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
    expect(await service.webhooks.update('acme', endpoint.id, { enabled: true })).toMatchObject({
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
    const { service, advance } = setup(() => ({ kind: 'answered', status }), { disableAfterMs: 0 })
    const { endpoint } = await service.webhooks.create('acme', {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    await service.webhooks.test('acme', endpoint.id)
    for (let i = 0; i < 3; i++) {
      expect(await service.webhooks.deliverNext()).toBe(true)
      advance(30 * DAY)
    }
    expect(await service.webhooks.get('acme', endpoint.id)).toMatchObject({ enabled: true })
    status = 204
    await service.webhooks.test('acme', endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    expect((await service.webhooks.get('acme', endpoint.id)).failingSince).toBeNull()
  })

  it('rotateSecret - a new secret, shown once; in the grace period either secret verifies a delivery, then only the new one', async () => {
    const { service, posts, advance } = setup(() => ({ kind: 'answered', status: 200 }), { secretGraceMs: 60_000 })
    const { endpoint, secret: old } = await service.webhooks.create('acme', {
      url: 'https://hooks.example.com/in',
      eventTypes: ['file.created'],
    })
    const rotated = await service.webhooks.rotateSecret('acme', endpoint.id)
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(old)
    expect(rotated.endpoint).not.toHaveProperty('secret')
    expect(rotated.endpoint).not.toHaveProperty('previousSecret')
    expect(rotated.endpoint.previousSecretExpiresAt).toBeInstanceOf(Date)
    await expect(service.webhooks.rotateSecret('other', endpoint.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })

    await service.webhooks.test('acme', endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    const during = posts.at(-1)!
    expect(during.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/)
    for (const secret of [old, rotated.secret]) {
      expect(new Webhook(secret).verify(during.body, during.headers)).toMatchObject({ type: 'webhook.test' })
    }

    advance(60_001)
    await service.webhooks.test('acme', endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    const after = posts.at(-1)!
    expect(after.headers['webhook-signature']).toMatch(/^v1,\S+$/)
    expect(new Webhook(rotated.secret).verify(after.body, after.headers)).toMatchObject({ type: 'webhook.test' })
    expect(() => new Webhook(old).verify(after.body, after.headers)).toThrow()
  })
})
