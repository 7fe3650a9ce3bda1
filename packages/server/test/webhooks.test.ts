import { mintOperatorToken } from '@pinfold/core'
import { form, TEST_SECRET } from '@pinfold/testing/test-api'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from './support/wait-for.js'
import { type ReceivedWebhook, startWebhookReceiver } from './support/webhook-receiver.js'
import { startWebhookServer, type WebhookServer } from './support/webhook-server.js'

/**
 * Signed webhooks end to end: `pinfold serve` in this process with its webhook loops, tenants'
 * endpoints registered over HTTP, events from real uploads, and a real receiver (node:http on
 * loopback, allowed by `PINFOLD_WEBHOOK_ALLOW_PRIVATE` here) that checks every delivery with the
 * `standardwebhooks` library. "Restart" closes the server and starts a new one over the same
 * stores, in process. The transport's address checks on their own: webhook-transport.test.ts.
 */

const opened: WebhookServer[] = []
afterEach(async () => {
  for (const hooks of opened.splice(0)) await hooks.close()
})

/** A webhook server on `storageKind`, closed after the test. */
async function startHooks(storageKind: 'memory' | 'embedded' | 'postgres', env: Record<string, string> = {}) {
  const hooks = await startWebhookServer(storageKind, env)
  opened.push(hooks)
  return hooks
}

const json = (method: string, body: unknown) => ({
  method,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

async function register(hooks: WebhookServer, url: string, org?: string) {
  const res = await hooks.api('/v3/webhooks', {
    ...json('POST', { url, event_types: ['file.created'], description: 'test receiver' }),
    org,
  })
  expect(res.status).toBe(201)
  return ((await res.json()) as { data: { id: string; secret: string } }).data
}

async function upload(hooks: WebhookServer, name: string, org?: string) {
  const res = await hooks.api('/v3/files', { method: 'POST', body: form({ name }, { bytes: `bytes of ${name}` }), org })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: { id: string } }).data.id
}

interface Delivery {
  event_id: string
  event_type: string
  status: string
  attempts: number
  last_status_code: number | null
  last_error: string | null
  next_attempt_at: string | null
}

async function deliveries(hooks: WebhookServer, id: string, org?: string): Promise<Delivery[]> {
  const res = await hooks.api(`/v3/webhooks/${id}/deliveries`, { org })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: { deliveries: Delivery[] } }).data.deliveries
}

/** What the receiver's library makes of a request: the verified payload, or a throw. */
function verified(secret: string, request: ReceivedWebhook) {
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(request.headers[name])]),
  )
  return new Webhook(secret).verify(request.body, headers) as {
    type: string
    timestamp: string
    data: { event_id: string; tenant_id: string; target: { kind: string; id: string } }
  }
}

describe('webhooks end to end', { timeout: 180_000 }, () => {
  it('delivery - a file upload reaches the endpoint signed (standardwebhooks verifies it), and the tenant sees the attempt', async () => {
    const receiver = await startWebhookReceiver()
    try {
      const hooks = await startHooks('memory', { PINFOLD_METRICS_TOKEN: 'metrics-operator-token-0123456789' })
      const endpoint = await register(hooks, receiver.url)
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
      const fileId = await upload(hooks, 'hello.txt')
      await waitFor('the delivery', async () => receiver.received[0])
      const [request] = receiver.received
      const payload = verified(endpoint.secret, request!)
      expect(payload).toMatchObject({
        type: 'file.created',
        data: { tenant_id: 'acme', target: { kind: 'file', id: fileId } },
      })
      expect(request!.headers['webhook-id']).toBe(payload.data.event_id)
      // a tampered body or another endpoint's secret does not verify
      expect(() => verified(endpoint.secret, { ...request!, body: request!.body.replace('hello', 'hallo') })).toThrow()
      const other = await register(hooks, receiver.url)
      expect(() => verified(other.secret, request!)).toThrow()
      const [shown] = await waitFor('the recorded attempt', async () => {
        const list = await deliveries(hooks, endpoint.id)
        return list[0]?.status === 'delivered' ? list : undefined
      })
      expect(shown).toMatchObject({
        event_id: payload.data.event_id,
        event_type: 'file.created',
        attempts: 1,
        last_status_code: 204,
        last_error: null,
        next_attempt_at: null,
      })
      const counted = await hooks.running().metrics!.registry.getSingleMetric('pinfold_webhook_attempts_total')!.get()
      expect(counted.values).toEqual([expect.objectContaining({ labels: { result: 'delivered' }, value: 1 })])
    } finally {
      await receiver.close()
    }
  })

  // PostgreSQL: the server TEST_DATABASE_URL names (as CI has it), else PGlite in process
  const storages = ['memory', process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded'] as const
  it.each(storages)(
    'restart - a delivery answered 500 is retried after the server restarts, with the same webhook-id, once delivered (%s)',
    async (storage) => {
      const receiver = await startWebhookReceiver([500])
      try {
        const hooks = await startHooks(storage, { PINFOLD_WEBHOOK_RETRY_BASE_MS: '1200' })
        const endpoint = await register(hooks, receiver.url)
        await upload(hooks, 'retried.txt')
        const [failed] = await waitFor('the first attempt recorded', async () => {
          const list = await deliveries(hooks, endpoint.id)
          return list[0]?.status === 'pending' && list[0].attempts === 1 ? list : undefined
        })
        expect(failed).toMatchObject({ last_status_code: 500, last_error: 'the endpoint answered HTTP 500' })
        expect(receiver.received).toHaveLength(1)
        await hooks.restart()
        await waitFor('the retry', async () => receiver.received[1])
        const [first, second] = receiver.received
        expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id'])
        expect(verified(endpoint.secret, second!).data.event_id).toBe(failed!.event_id)
        const [done] = await waitFor('the delivery recorded', async () => {
          const list = await deliveries(hooks, endpoint.id)
          return list[0]?.status === 'delivered' ? list : undefined
        })
        expect(done).toMatchObject({ attempts: 2, last_status_code: 204 })
        // delivered once: nothing more comes
        await new Promise((resolve) => setTimeout(resolve, 300))
        expect(receiver.received).toHaveLength(2)
      } finally {
        await receiver.close()
      }
    },
  )

  it('lease - a delivery claimed by a process that died is sent by another once the lease runs out', async () => {
    const receiver = await startWebhookReceiver()
    try {
      // no webhook loop yet: the test plays the process that claims and dies
      const hooks = await startHooks('memory', { PINFOLD_WEBHOOK_POLL_MS: '0', PINFOLD_WEBHOOK_TIMEOUT_MS: '400' })
      const endpoint = await register(hooks, receiver.url)
      expect((await hooks.api(`/v3/webhooks/${endpoint.id}/test`, { method: 'POST' })).status).toBe(202)
      const claimedAt = Date.now()
      const crashed = await hooks.stores.records.webhooks.claimWebhookDelivery('crashed-process', new Date(), 1_000)
      expect(crashed?.event.type).toBe('webhook.test')
      await hooks.restart({ PINFOLD_WEBHOOK_POLL_MS: '50' })
      await waitFor('the delivery taken over', async () => receiver.received[0])
      expect(receiver.received[0]!.at - claimedAt).toBeGreaterThanOrEqual(950)
      expect(verified(endpoint.secret, receiver.received[0]!).type).toBe('webhook.test')
      const [done] = await waitFor('the delivery recorded', async () => {
        const list = await deliveries(hooks, endpoint.id)
        return list[0]?.status === 'delivered' ? list : undefined
      })
      expect(done!.attempts).toBe(2)
    } finally {
      await receiver.close()
    }
  })

  it("fairness - a tenant whose endpoint hangs holds one slot: another tenant's delivery goes out at once", async () => {
    const dead = await startWebhookReceiver(Array.from({ length: 10 }, () => 'hang' as const))
    const alive = await startWebhookReceiver()
    try {
      const hooks = await startHooks('memory', { PINFOLD_WEBHOOK_JOBS: '2', PINFOLD_WEBHOOK_TIMEOUT_MS: '5000' })
      await register(hooks, dead.url, 'stuck')
      await register(hooks, alive.url, 'acme')
      for (let i = 0; i < 4; i++) await upload(hooks, `stuck-${i}.txt`, 'stuck')
      await waitFor('the hanging delivery', async () => dead.received[0])
      const uploadedAt = Date.now()
      await upload(hooks, 'on-time.txt', 'acme')
      await waitFor('the other tenant’s delivery', async () => alive.received[0], 4_000)
      expect(alive.received[0]!.at - uploadedAt).toBeLessThan(2_000)
      // the dead endpoint still holds its one slot, and nothing more of its tenant's
      expect(dead.received).toHaveLength(1)
    } finally {
      await dead.close()
      await alive.close()
    }
  })
})

describe('webhook endpoints: addresses, input and tenants', { timeout: 60_000 }, () => {
  it('registration - loopback, private, link-local, IPv6-mapped and names resolving to them are a 400 unless allowed', async () => {
    const hooks = await startHooks('memory', { PINFOLD_WEBHOOK_ALLOW_PRIVATE: 'false' })
    for (const url of [
      'http://127.0.0.1:8080/hooks',
      'http://[::1]/hooks',
      'http://[::ffff:127.0.0.1]/hooks',
      'http://[::ffff:7f00:1]/hooks',
      'http://10.1.2.3/hooks',
      'http://192.168.0.10/hooks',
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/hooks',
      'http://0.0.0.0/hooks',
      'http://localhost:8080/hooks',
    ]) {
      const res = await hooks.api('/v3/webhooks', json('POST', { url, event_types: ['file.created'] }))
      expect(res.status, url).toBe(400)
      expect(((await res.json()) as { error: string }).error, url).toMatch(
        /^url is not allowed: .*(resolves to|is) .*address/,
      )
    }
    const list = await hooks.api('/v3/webhooks')
    expect(((await list.json()) as { data: { endpoints: unknown[] } }).data.endpoints).toEqual([])
  })

  it('registration - a bad URL, scheme or event type is a 400 JSON error and stores nothing', async () => {
    const hooks = await startHooks('memory')
    for (const body of [
      { url: 'not a url', event_types: ['file.created'] },
      { url: 'ftp://hooks.example.com/in', event_types: ['file.created'] },
      { url: 'https://user:pass@hooks.example.com/in', event_types: ['file.created'] },
      { url: 'https://hooks.example.com/in', event_types: ['file.exploded'] },
      { url: 'https://hooks.example.com/in', event_types: [] },
      { url: 'https://hooks.example.com/in' },
    ]) {
      const res = await hooks.api('/v3/webhooks', json('POST', body))
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(await res.json()).toEqual({ error: expect.any(String) })
    }
    const list = await hooks.api('/v3/webhooks')
    expect(((await list.json()) as { data: { endpoints: unknown[] } }).data.endpoints).toEqual([])
  })

  it("tenants - another tenant's endpoint is a 404 on every route; the operator's endpoints are its own", async () => {
    const hooks = await startHooks('memory')
    const mine = await register(hooks, 'http://127.0.0.1:9/mine')
    for (const [path, init] of [
      [`/v3/webhooks/${mine.id}`, {}],
      [`/v3/webhooks/${mine.id}`, json('PATCH', { enabled: false })],
      [`/v3/webhooks/${mine.id}/deliveries`, {}],
      [`/v3/webhooks/${mine.id}/test`, { method: 'POST' }],
      [`/v3/webhooks/${mine.id}`, { method: 'DELETE' }],
    ] as const) {
      const res = await hooks.api(path, { ...init, org: 'intruder' })
      expect(res.status, `${init.method ?? 'GET'} ${path}`).toBe(404)
    }
    const theirs = await hooks.api('/v3/webhooks', { org: 'intruder' })
    expect(((await theirs.json()) as { data: { endpoints: unknown[] } }).data.endpoints).toEqual([])
    const shown = await hooks.api(`/v3/webhooks/${mine.id}`)
    expect(((await shown.json()) as { data: { enabled: boolean; secret?: string } }).data).toMatchObject({
      enabled: true,
    })
    expect(((await (await hooks.api(`/v3/webhooks/${mine.id}`)).json()) as { data: object }).data).not.toHaveProperty(
      'secret',
    )
    // the operator's endpoints and a tenant's are apart both ways
    const auth = await mintOperatorToken(TEST_SECRET, { sub: 'ops', expiresIn: 60 })
    expect((await hooks.api(`/admin/v1/webhooks/${mine.id}`, { auth })).status).toBe(404)
    const created = await hooks.api('/admin/v1/webhooks', {
      ...json('POST', { url: 'http://127.0.0.1:9/ops', event_types: ['content.blocked'] }),
      auth,
    })
    expect(created.status).toBe(201)
    const ops = ((await created.json()) as { data: { id: string } }).data
    expect((await hooks.api(`/v3/webhooks/${ops.id}`)).status).toBe(404)
    expect((await hooks.api(`/admin/v1/webhooks/${ops.id}`, { auth })).status).toBe(200)
  })
})
