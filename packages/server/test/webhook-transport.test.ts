import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService } from '@pinfold/core'
import { describe, expect, it } from 'vitest'
import { addressRefusal, createWebhookTransport, type HostLookup } from '../src/webhook-transport.js'
import { startWebhookReceiver } from './support/webhook-receiver.js'

/**
 * The webhook transport's decisions on resolved addresses (DESIGN rule 17), with a lookup the test
 * controls: what a name resolves to now, and what it would resolve to a moment later (DNS
 * rebinding). Connections go to a real receiver on loopback.
 */

/** A resolver answering each name from `answers`, one answer per call (the last one repeats); counts calls. */
function scriptedLookup(answers: string[][]): HostLookup & { calls: number } {
  const lookup = Object.assign(
    async () => {
      const answer = answers[Math.min(lookup.calls, answers.length - 1)]!
      lookup.calls++
      return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    },
    { calls: 0 },
  )
  return lookup
}

const post = (url: string, timeoutMs = 5_000, maxResponseBytes = 1_024) => ({
  url,
  headers: { 'content-type': 'application/json' },
  body: '{"type":"webhook.test"}',
  timeoutMs,
  maxResponseBytes,
})

describe('webhook transport', { timeout: 30_000 }, () => {
  it('addressRefusal - public unicast only: loopback, private, link-local, CGNAT, mapped, NAT64, 6to4 are refused', () => {
    for (const ok of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(addressRefusal(ok), ok).toBeUndefined()
    for (const [address, what] of [
      ['127.0.0.1', 'loopback'],
      ['::1', 'loopback'],
      ['10.0.0.5', 'private'],
      ['172.16.3.4', 'private'],
      ['192.168.1.1', 'private'],
      ['fd00::1', 'unique local'],
      ['169.254.169.254', 'link-local'],
      ['fe80::1', 'link-local'],
      ['100.64.0.1', 'carrier-grade NAT'],
      ['::ffff:127.0.0.1', 'IPv4-mapped'],
      ['::ffff:10.0.0.1', 'IPv4-mapped'],
      ['64:ff9b::a00:1', 'rfc6052'],
      ['2002:7f00:1::', '6to4'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'],
    ]) {
      expect(addressRefusal(address!), address).toContain(what)
    }
  })

  it('check - a name is refused when any address it resolves to is refused; an unresolvable one is not refused yet', async () => {
    const mixed = createWebhookTransport({ lookup: scriptedLookup([['93.184.216.34', '10.0.0.7']]) })
    expect(await mixed.check('https://hooks.example.com/in')).toEqual({
      kind: 'refused',
      reason: 'hooks.example.com resolves to 10.0.0.7, a private address',
    })
    const fine = createWebhookTransport({ lookup: scriptedLookup([['93.184.216.34']]) })
    expect(await fine.check('https://hooks.example.com/in')).toEqual({ kind: 'allowed' })
    const missing = createWebhookTransport({
      lookup: async () => {
        throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' })
      },
    })
    expect(await missing.check('https://gone.example/in')).toMatchObject({ kind: 'unresolved' })
    expect(await fine.check('http://[::ffff:127.0.0.1]:80/')).toMatchObject({ kind: 'refused' })
  })

  it('post - resolves once and connects to the checked address: a second answer of the name (rebinding) is never used', async () => {
    const receiver = await startWebhookReceiver()
    try {
      const port = new URL(receiver.url).port
      // the first answer is the receiver; any later one would send the request elsewhere
      const lookup = scriptedLookup([['127.0.0.1'], ['192.0.2.1']])
      const transport = createWebhookTransport({ allowPrivate: true, lookup })
      const result = await transport.post(post(`http://rebind.invalid:${port}/hooks`))
      expect(result).toEqual({ kind: 'answered', status: 204 })
      expect(lookup.calls).toBe(1)
      expect(receiver.received[0]!.headers.host).toBe(`rebind.invalid:${port}`)
      expect(receiver.received[0]!.body).toBe('{"type":"webhook.test"}')
    } finally {
      await receiver.close()
    }
  })

  it('post - refused, without connecting, when the name now resolves to a refused address', async () => {
    const receiver = await startWebhookReceiver()
    try {
      const transport = createWebhookTransport({ lookup: scriptedLookup([['127.0.0.1']]) })
      const result = await transport.post(post(`http://hooks.example.com:${new URL(receiver.url).port}/hooks`))
      expect(result).toEqual({ kind: 'refused', reason: 'hooks.example.com resolves to 127.0.0.1, a loopback address' })
      expect(receiver.received).toEqual([])
    } finally {
      await receiver.close()
    }
  })

  it('post - bounded: an endpoint that never answers times out; a huge answer is read only to the cap', async () => {
    const hanging = await startWebhookReceiver(['hang'])
    let sent = 0
    const flood = createServer((_req, res) => {
      res.writeHead(200)
      // far more than the cap, as fast as the socket takes it, until the client goes
      const chunk = Buffer.alloc(64 * 1024, 1)
      const pump = () => {
        while (!res.destroyed && sent < 256 * 1024 * 1024 && res.write(chunk)) sent += chunk.length
        if (!res.destroyed && sent < 256 * 1024 * 1024) res.once('drain', pump)
        else res.end()
      }
      pump()
    })
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve))
    try {
      const transport = createWebhookTransport({ allowPrivate: true })
      const started = Date.now()
      expect(await transport.post(post(hanging.url, 300))).toEqual({
        kind: 'unreachable',
        reason: 'no answer within 300 ms',
      })
      expect(Date.now() - started).toBeLessThan(2_000)
      const port = (flood.address() as AddressInfo).port
      expect(await transport.post(post(`http://127.0.0.1:${port}/`, 10_000, 16 * 1024))).toEqual({
        kind: 'answered',
        status: 200,
      })
      expect(sent).toBeLessThan(64 * 1024 * 1024)
    } finally {
      flood.closeAllConnections()
      await new Promise<void>((resolve) => flood.close(() => resolve()))
      await hanging.close()
    }
  })

  it('delivery - a host that resolved to a public address at registration and to a private one later fails, reason recorded', async () => {
    const lookup = scriptedLookup([['93.184.216.34'], ['10.0.0.5']])
    const records = createMemoryRecordStore()
    const service = createFileService({
      records,
      blobs: createMemoryBlobStore(),
      webhookTransport: createWebhookTransport({ lookup }),
    })
    const acme = { kind: 'tenant', actor: { tenantId: 'acme', userId: 'alice' } } as const
    const { endpoint } = await service.webhooks.create(acme, {
      url: 'https://flip.example/hooks',
      eventTypes: ['file.created'],
    })
    await service.webhooks.test(acme, endpoint.id)
    expect(await service.webhooks.deliverNext()).toBe(true)
    const { items } = await service.webhooks.deliveries(acme, endpoint.id, {})
    expect(items).toMatchObject([
      {
        status: 'failed',
        attempts: 1,
        lastStatusCode: null,
        lastError: 'flip.example resolves to 10.0.0.5, a private address',
        nextAttemptAt: null,
      },
    ])
    expect(await service.webhooks.deliverNext()).toBe(false)
  })
})
