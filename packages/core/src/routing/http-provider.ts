import { base58btc } from 'multiformats/bases/base58'
import { identity } from 'multiformats/hashes/identity'

/** The Delegated Routing V1 protocol name of a trustless HTTP gateway. */
export const TRANSPORT_IPFS_GATEWAY_HTTP = 'transport-ipfs-gateway-http'

/**
 * The peer id a routing answer gives an HTTP gateway that is no libp2p peer: the identity multihash
 * of its URL, as Helia's `httpGatewayRouting` names gateways (its clients read such an id back as a
 * URL), written in base58btc, the only form Helia's routing client parses.
 */
export function gatewayProviderId(url: string): string {
  return base58btc.baseEncode(identity.digest(new TextEncoder().encode(url)).bytes)
}

/**
 * A gateway's base URL as a multiaddr (`/dns/files.example.com/tcp/443/https`), the form routing
 * answers carry addresses in; a mount path follows as `/http-path/%2Fpath`.
 */
export function gatewayMultiaddr(url: string): string {
  const parsed = new URL(url)
  const scheme = parsed.protocol === 'https:' ? 'https' : 'http'
  const port = parsed.port || (scheme === 'https' ? '443' : '80')
  const host = parsed.hostname
  const address = host.startsWith('[')
    ? `/ip6/${host.slice(1, -1)}`
    : /^\d{1,3}(\.\d{1,3}){3}$/.test(host)
      ? `/ip4/${host}`
      : `/dns/${host}`
  const path = parsed.pathname.replace(/\/+$/, '')
  return `${address}/tcp/${port}/${scheme}${path ? `/http-path/${encodeURIComponent(path)}` : ''}`
}
