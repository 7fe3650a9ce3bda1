import { createSocket, type Socket } from 'node:dgram'
import type { AddressInfo } from 'node:net'
import { type ConformanceGateway, startConformanceGateway } from '@pinfold/testing/gateway-conformance'
import * as dnsPacket from 'dns-packet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTxtResolver } from '../src/dns-txt-resolver.js'

/**
 * DNSLink end to end: a real DNS server on a local UDP port (answers built with dns-packet), the
 * server's own TXT resolver pointed at it, and a website served on a tenant's domain from what
 * the DNS says — the domain's ownership verified through the same DNS.
 */
interface DnsZone {
  port: number
  /** TXT records by name, with their TTL in seconds. */
  txt: Map<string, { values: string[]; ttl: number }>
  /** Every TXT name asked, in order. */
  asked: string[]
  close(): Promise<void>
}

async function startDnsServer(): Promise<DnsZone> {
  const txt = new Map<string, { values: string[]; ttl: number }>()
  const asked: string[] = []
  const socket: Socket = createSocket('udp4')
  socket.on('message', (message, from) => {
    const query = dnsPacket.decode(message)
    const question = query.questions?.[0]
    if (!question) return
    asked.push(question.name)
    const zone = txt.get(question.name.toLowerCase())
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (zone ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers: zone
        ? zone.values.map((value) => ({ type: 'TXT' as const, name: question.name, ttl: zone.ttl, data: value }))
        : [],
    })
    socket.send(response, from.port, from.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  return {
    port: (socket.address() as AddressInfo).port,
    txt,
    asked,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
}

describe('DNSLink through a real DNS server', () => {
  let dns: DnsZone
  let gw: ConformanceGateway
  const DOMAIN = 'spa.example.org'
  beforeAll(async () => {
    dns = await startDnsServer()
    gw = await startConformanceGateway({
      publicHost: true,
      resolveTxt: createTxtResolver({ servers: [`127.0.0.1:${dns.port}`], timeoutMs: 2000 }),
    })
  })
  afterAll(async () => {
    await gw?.close()
    await dns?.close()
  })

  it('a verified domain without a DNSLink record: a 404 naming the record, NXDOMAIN believed for a minute', async () => {
    const site = await gw.loadCar('redirects_file/redirects-spa.car')
    const claimed = await gw.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ domain: DOMAIN }) })
    const claim = (await claimed.json()) as { data: { id: string; verification: { name: string; value: string } } }
    dns.txt.set(claim.data.verification.name, { values: [claim.data.verification.value], ttl: 300 })
    const verified = await gw.api(`/v3/gateways/domains/${claim.data.id}/verify`, { method: 'POST' })
    expect(((await verified.json()) as { data: { status: string } }).data.status).toBe('active')

    // no DNSLink record yet: NXDOMAIN from the server, a 404 naming the record to add
    const before = await gw.onHost(DOMAIN, '/')
    expect(before.status).toBe(404)
    expect(before.body).toContain(`_dnslink.${DOMAIN}`)

    dns.txt.set(`_dnslink.${DOMAIN}`, { values: ['unrelated', `dnslink=/ipfs/${site}`], ttl: 1 })
    // the "no record" answer is believed for a minute: the gateway has not asked again
    expect((await gw.onHost(DOMAIN, '/')).status).toBe(404)
    const asked = dns.asked.filter((name) => name === `_dnslink.${DOMAIN}`).length
    expect(asked).toBe(1)
  })

  it('a DNSLink website with its _redirects, its record kept for its TTL: one DNS query for many requests, a new one after it', async () => {
    const site = await gw.loadCar('redirects_file/redirects-spa.car')
    const host = 'www.example.org'
    const claimed = await gw.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ domain: host }) })
    const claim = (await claimed.json()) as { data: { id: string; verification: { name: string; value: string } } }
    dns.txt.set(claim.data.verification.name, { values: [claim.data.verification.value], ttl: 300 })
    await gw.api(`/v3/gateways/domains/${claim.data.id}/verify`, { method: 'POST' })
    dns.txt.set(`_dnslink.${host}`, { values: [`dnslink=/ipfs/${site}`], ttl: 1 })

    for (let i = 0; i < 3; i++) {
      const page = await gw.onHost(host, '/some/client/route', { headers: { accept: 'text/html' } })
      expect(page.status).toBe(200) // the SPA's `/* /index.html 200`
      expect(page.body).toBe('hello world\n')
      expect(page.headers['cache-control']).toBe('public, max-age=60')
    }
    const queries = () => dns.asked.filter((name) => name === `_dnslink.${host}`).length
    expect(queries()).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect((await gw.onHost(host, '/index.html')).status).toBe(200)
    expect(queries()).toBe(2)
  })
})
