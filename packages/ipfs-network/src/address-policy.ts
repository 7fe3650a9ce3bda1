import { BlockList, isIP } from 'node:net'

/**
 * Which IP addresses this node may open connections to. A client names hosts (Pinata's
 * `host_nodes`) and the network hands out peer addresses (DHT records, identify): on the internet
 * none of them may send the node into the operator's own networks, so every address an outgoing
 * connection would use is asked here, as an IP, after name resolution.
 */
export interface AddressPolicy {
  /** Why `ip` (an IPv4 or IPv6 address as text) may not be dialled, or `undefined` when it may. */
  refusal(ip: string): string | undefined
}

type Family = 'ipv4' | 'ipv6'

/** Address ranges that never lead to a peer on the public internet, and what each is. */
const RANGES: ReadonlyArray<{ what: string; subnets: ReadonlyArray<[string, number, Family]> }> = [
  {
    what: 'an unspecified address (it reaches this machine)',
    subnets: [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  },
  {
    what: 'a loopback address',
    subnets: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    what: 'a private address',
    subnets: [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'], // shared address space (carrier-grade NAT), RFC 6598
      ['fc00::', 7, 'ipv6'], // unique local, RFC 4193
      ['fec0::', 10, 'ipv6'], // site-local, deprecated but still routed by some stacks
    ],
  },
  {
    what: 'a link-local address',
    subnets: [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  },
  {
    what: 'a multicast address',
    subnets: [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  },
  {
    // each embeds an IPv4 address that a stack or gateway on the way may turn into a connection to it
    what: 'an IPv4-mapped, IPv4-compatible, NAT64 or tunnelled (6to4, Teredo) IPv6 address',
    subnets: [
      ['::ffff:0:0', 96, 'ipv6'],
      ['::', 96, 'ipv6'],
      ['64:ff9b::', 96, 'ipv6'],
      ['64:ff9b:1::', 48, 'ipv6'],
      ['2002::', 16, 'ipv6'],
      ['2001::', 32, 'ipv6'],
    ],
  },
  {
    what: 'a reserved address',
    subnets: [
      ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
      ['198.18.0.0', 15, 'ipv4'], // benchmarking
      ['240.0.0.0', 4, 'ipv4'], // future use and the limited broadcast address
      ['100::', 64, 'ipv6'], // discard-only
    ],
  },
]

// One list per family: a BlockList matches an IPv4 address against IPv6 rules as if it were
// IPv4-mapped, so a single list holding ::ffff:0:0/96 would refuse every IPv4 address.
const LISTS = RANGES.map(({ what, subnets }) => {
  const lists: Record<Family, BlockList> = { ipv4: new BlockList(), ipv6: new BlockList() }
  for (const [network, prefix, family] of subnets) lists[family].addSubnet(network, prefix, family)
  return { what, lists }
})

/**
 * The policy: addresses of the public internet only, unless the operator allows every address
 * (`allowPrivate`, `PINFOLD_IPFS_PRIVATE_ADDRESSES=true`: a LAN or a test network). Text that is
 * not an IP address is always refused: names must be resolved first, so that the address checked
 * is the address dialled.
 */
export function createAddressPolicy(options: { allowPrivate?: boolean | undefined } = {}): AddressPolicy {
  return {
    refusal(ip) {
      const version = isIP(ip)
      if (version === 0) return `${JSON.stringify(ip.slice(0, 100))} is not an IP address`
      if (options.allowPrivate) return undefined
      const family: Family = version === 4 ? 'ipv4' : 'ipv6'
      const hit = LISTS.find(({ lists }) => lists[family].check(ip, family))
      return hit && `${ip} is ${hit.what}`
    },
  }
}
