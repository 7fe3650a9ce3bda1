/**
 * The address policy and the dial guard on their own (no libp2p, so Node 20 runs them): which IPs
 * may be dialled, and that names are resolved by the operating system before anything is decided.
 * `peers.test.ts` proves the same guard on a real node against a listener that counts connections.
 */
import { hostname } from 'node:os'
import { multiaddr } from '@multiformats/multiaddr'
import { describe, expect, it } from 'vitest'
import { createAddressPolicy } from '../src/address-policy.js'
import { createDialGuard, type HostLookup } from '../src/dial-guard.js'

const PEER = '/p2p/12D3KooWGRUVh8ZmaFDsg6UKaRv9bCZNwmtRJ3bmQf3xs2AB4qnE'

describe('address policy', () => {
  const strict = createAddressPolicy()
  const refused: [string, string][] = [
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00::2', 'private'],
    ['fec0::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['64:ff9b:1::a00:1', 'NAT64'],
    ['2002:7f00:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ]

  it('refusal - loopback, private, link-local, unspecified, multicast, IPv4-embedding and reserved ranges', () => {
    for (const [ip, kind] of refused) expect(strict.refusal(ip), ip).toContain(kind)
  })

  it('refusal - public IPv4 and IPv6 addresses may be dialled', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '147.75.83.83',
      '172.32.0.1',
      '2606:4700:4700::1111',
      '2604:1380:4642::1',
    ]) {
      expect(strict.refusal(ip), ip).toBeUndefined()
    }
  })

  it('refusal - with private addresses allowed every IP may be dialled, text that is no IP never', () => {
    const lax = createAddressPolicy({ allowPrivate: true })
    for (const [ip] of refused) expect(lax.refusal(ip), ip).toBeUndefined()
    for (const text of ['localhost', 'LOCALHOST', '', '127.1']) {
      expect(lax.refusal(text), text).toContain('is not an IP address')
      expect(strict.refusal(text), text).toContain('is not an IP address')
    }
  })
})

describe('dial guard', () => {
  const guard = createDialGuard()

  it('resolve - a name becomes the IPs the system resolves it to, whatever its case; the IP is what is checked', async () => {
    for (const name of ['LOCALHOST', 'localhost', hostname(), hostname().toUpperCase()]) {
      const resolved = await guard.resolve(multiaddr(`/dns4/${name}/tcp/4001${PEER}`))
      expect(resolved.length, name).toBeGreaterThan(0)
      for (const address of resolved) {
        expect(address.getComponents()[0]?.name, name).toBe('ip4')
        expect(address.toString()).toMatch(new RegExp(`/tcp/4001${PEER}$`))
      }
    }
    const [loopback] = await guard.resolve(multiaddr(`/dns4/LOCALHOST/tcp/4001${PEER}`))
    expect(loopback!.toString()).toBe(`/ip4/127.0.0.1/tcp/4001${PEER}`)
    expect(guard.refusal(loopback!)).toBe('127.0.0.1 is a loopback address')
  })

  it('resolve - every address of a name is returned, each decided on its own; a name that does not resolve gives none', async () => {
    const lookup: HostLookup = async (name, { family }) => {
      expect({ name, family }).toEqual({ name: 'peer.example', family: 0 })
      return [
        { address: '203.0.113.9', family: 4 },
        { address: '10.0.0.7', family: 4 },
        { address: '2001:db8::9', family: 6 },
      ]
    }
    const mixed = createDialGuard({ lookup })
    const resolved = await mixed.resolve(multiaddr(`/dns/peer.example/tcp/4001/ws${PEER}`))
    expect(resolved.map(String)).toEqual([
      `/ip4/203.0.113.9/tcp/4001/ws${PEER}`,
      `/ip4/10.0.0.7/tcp/4001/ws${PEER}`,
      `/ip6/2001:db8::9/tcp/4001/ws${PEER}`,
    ])
    expect(resolved.map((address) => mixed.refusal(address))).toEqual([
      undefined,
      '10.0.0.7 is a private address',
      undefined,
    ])
    const failing = createDialGuard({
      lookup: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })
      },
    })
    expect(await failing.resolve(multiaddr(`/dns4/nowhere.invalid/tcp/1${PEER}`))).toEqual([])
  })

  it('refusal - names not yet resolved, dnsaddr, TLS names, Unix sockets are refused even with private addresses allowed', () => {
    const lax = createDialGuard({ allowPrivate: true })
    for (const g of [guard, lax]) {
      expect(g.refusal(multiaddr(`/dns4/example.com/tcp/1${PEER}`))).toContain('is a name')
      expect(g.refusal(multiaddr(`/dnsaddr/example.com${PEER}`))).toContain('is a name')
      expect(g.refusal(multiaddr(`/unix/${encodeURIComponent('/var/run/docker.sock')}${PEER}`))).toContain(
        'only IP addresses are dialled',
      )
      expect(g.refusal(multiaddr(PEER))).toContain('only IP addresses are dialled')
      // @libp2p/websockets connects to the TLS name, not to the IP in front of it
      expect(g.refusal(multiaddr(`/ip4/8.8.8.8/tcp/443/tls/sni/localhost/ws${PEER}`))).toContain('localhost is a name')
    }
    expect(lax.refusal(multiaddr(`/ip4/127.0.0.1/tcp/1${PEER}`))).toBeUndefined()
    expect(guard.refusal(multiaddr(`/ip4/8.8.8.8/tcp/1${PEER}`))).toBeUndefined()
  })

  it("gater and resolver - libp2p's hooks answer as refusal and resolve do", async () => {
    expect(await guard.gater.denyDialMultiaddr!(multiaddr(`/ip6/64:ff9b::7f00:1/tcp/1${PEER}`))).toBe(true)
    expect(await guard.gater.denyDialMultiaddr!(multiaddr(`/dns4/LOCALHOST/tcp/1${PEER}`))).toBe(true)
    expect(await guard.gater.denyDialMultiaddr!(multiaddr(`/ip4/8.8.8.8/tcp/1${PEER}`))).toBe(false)
    expect(guard.resolver.canResolve(multiaddr(`/dns6/localhost/tcp/1${PEER}`))).toBe(true)
    expect(guard.resolver.canResolve(multiaddr(`/dnsaddr/bootstrap.libp2p.io${PEER}`))).toBe(false)
    expect(guard.resolver.canResolve(multiaddr(`/ip4/8.8.8.8/tcp/1${PEER}`))).toBe(false)
    // libp2p passes its logger; the guard's resolver needs none
    const libp2pOptions = {} as Parameters<typeof guard.resolver.resolve>[1]
    const resolved = await guard.resolver.resolve(multiaddr(`/dns4/localhost/tcp/1${PEER}`), libp2pOptions)
    expect(resolved.map(String)).toEqual([`/ip4/127.0.0.1/tcp/1${PEER}`])
  })
})
