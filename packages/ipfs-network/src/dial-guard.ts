import { lookup as systemLookup } from 'node:dns/promises'
import type { ConnectionGater, MultiaddrResolver } from '@libp2p/interface'
import { CODE_IP4, CODE_IP6, type Component, type Multiaddr, multiaddr } from '@multiformats/multiaddr'
import { type AddressPolicy, createAddressPolicy } from './address-policy.js'

/** `node:dns` `lookup` with `all: true`: what the operating system resolves a name to. */
export type HostLookup = (
  name: string,
  options: { all: true; family: 0 | 4 | 6 },
) => Promise<Array<{ address: string; family: number }>>

export interface DialGuardOptions {
  /** Dial private, loopback and other non-public addresses too (a LAN or a test network). */
  allowPrivate?: boolean | undefined
  /** Resolves host names; default the operating system's resolver (`/etc/hosts`, then DNS). */
  lookup?: HostLookup | undefined
}

/**
 * Decides every outgoing libp2p connection on the address it would really use. Host names in
 * multiaddrs (`/dns`, `/dns4`, `/dns6`) are resolved here, each resulting address is checked by
 * the {@link AddressPolicy}, and the multiaddr handed on names the checked IP, never the name: a
 * transport given a name would resolve it again, and the second answer (a DNS rebinding, a name
 * such as `LOCALHOST` or the machine's own) is the one it would connect to.
 */
export interface DialGuard {
  /** libp2p's resolver for `/dns`, `/dns4` and `/dns6`: one multiaddr per resolved address. */
  readonly resolver: MultiaddrResolver
  /** libp2p's connection gater: refuses every dial `refusal` refuses. */
  readonly gater: Pick<ConnectionGater, 'denyDialMultiaddr'>
  /** `address` with its host name resolved: one multiaddr per address (itself when it names no host). */
  resolve(address: Multiaddr): Promise<Multiaddr[]>
  /**
   * Why `address` may not be dialled, or `undefined`. Only an address that starts with an IP and
   * holds no IP the policy refuses and no host name may be dialled: a name not yet resolved, a TLS
   * name (`/tls/sni/…`, where `@libp2p/websockets` would connect), a Unix socket path (which
   * `@libp2p/tcp` would dial), any other kind of address is refused.
   */
  refusal(address: Multiaddr): string | undefined
}

/** The multiaddr components that hold a host name, and the address family each asks for. */
const NAME_FAMILY = new Map<string, 0 | 4 | 6>([
  ['dns', 0],
  ['dns4', 4],
  ['dns6', 6],
])

/** Components that name a host: a transport given one would resolve it itself, unchecked. */
const HOST_NAMES = new Set([...NAME_FAMILY.keys(), 'dnsaddr', 'sni'])

export function createDialGuard(options: DialGuardOptions = {}): DialGuard {
  const policy: AddressPolicy = createAddressPolicy({ allowPrivate: options.allowPrivate })
  const lookup: HostLookup = options.lookup ?? ((name, how) => systemLookup(name, how))

  async function resolve(address: Multiaddr): Promise<Multiaddr[]> {
    const components = address.getComponents()
    const at = components.findIndex((c) => NAME_FAMILY.has(c.name))
    if (at === -1) return [address]
    const name = components[at]!.value!
    let found: Array<{ address: string; family: number }>
    try {
      found = await lookup(name, { all: true, family: NAME_FAMILY.get(components[at]!.name)! })
    } catch {
      return [] // a name that does not resolve has nothing to dial
    }
    return found.map(({ address: ip, family }) => {
      const host: Component =
        family === 6 ? { code: CODE_IP6, name: 'ip6', value: ip } : { code: CODE_IP4, name: 'ip4', value: ip }
      return multiaddr([...components.slice(0, at), host, ...components.slice(at + 1)])
    })
  }

  function refusal(address: Multiaddr): string | undefined {
    const components = address.getComponents()
    // every component a transport could connect to: a TLS name (`/tls/sni/localhost/ws`) is where
    // the WebSocket transport connects, whatever IP comes first
    for (const { name, value } of components) {
      if (name === 'ip4' || name === 'ip6') {
        const why = policy.refusal(value ?? '')
        if (why) return why
      } else if (HOST_NAMES.has(name)) {
        return `${value} is a name: only the addresses it resolves to may be dialled`
      }
    }
    const first = components[0]?.name
    if (first !== 'ip4' && first !== 'ip6') return `${first ?? 'an empty'} address: only IP addresses are dialled`
    return undefined
  }

  return {
    resolver: {
      canResolve: (address) => address.getComponents().some((c) => NAME_FAMILY.has(c.name)),
      resolve: (address) => resolve(address),
    },
    gater: { denyDialMultiaddr: (address) => refusal(address) !== undefined },
    resolve,
    refusal,
  }
}
