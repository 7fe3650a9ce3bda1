import { multiaddr } from '@multiformats/multiaddr'
import { invalid } from '@pinfold/interface'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'

/** The Pinning Service API's bound on `origins` (`maxItems: 20`), applied to Pinata's `host_nodes`. */
export const MAX_HOST_NODES = 20

/**
 * The longest host node kept. The longest useful one is a full DNS name (253 characters), a port,
 * a transport and a peer id: about 350 characters; twice the common case leaves room, and a
 * request cannot store more than 20 × 512 characters of them.
 */
export const MAX_HOST_NODE_CHARS = 512

/** Where a host node must start: a host the node can connect to, by address or by name. */
const HOST_PROTOCOLS = new Set(['ip4', 'ip6', 'dns', 'dns4', 'dns6'])

/** A DNS host name: labels of letters, digits, hyphens and underscores, at most 253 characters in all. */
const HOST_NAME =
  /^(?=.{1,253}\.?$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i

const SHA2_256 = 0x12
const IDENTITY = 0x00
const LIBP2P_KEY = 0x72

const EXAMPLE = '/ip4/203.0.113.7/tcp/4001/p2p/12D3KooW…'

/**
 * Pinata's `host_nodes` (the Pinning Service API's `origins`): peers the requester says hold the
 * content, each a multiaddr that names a host (`/ip4`, `/ip6`, `/dns`, `/dns4`, `/dns6`) and ends
 * with the peer's id (`/p2p/…`), as bitswap needs to know whom it reached. At most
 * {@link MAX_HOST_NODES}, each at most {@link MAX_HOST_NODE_CHARS} characters, none twice; each is
 * kept in its canonical text. A bad one is `INVALID_INPUT` naming its index.
 *
 * Only the form is checked here: whether an address may be dialled is decided when it is dialled,
 * on the addresses its name resolves to then (`@pinfold/ipfs-network`'s dial guard), since a name's
 * answer at request time says nothing about its answer at dial time.
 */
export function checkHostNodes(value: unknown): string[] {
  if (!Array.isArray(value)) throw invalid('host_nodes must be an array of multiaddrs')
  if (value.length > MAX_HOST_NODES) throw invalid(`host_nodes may list at most ${MAX_HOST_NODES} multiaddrs`)
  const seen = new Map<string, number>()
  return value.map((node, index) => {
    const canonical = checkHostNode(node, `host_nodes[${index}]`)
    const earlier = seen.get(canonical)
    if (earlier !== undefined) throw invalid(`host_nodes[${index}] repeats host_nodes[${earlier}]`)
    seen.set(canonical, index)
    return canonical
  })
}

function checkHostNode(node: unknown, field: string): string {
  if (typeof node !== 'string' || !node.startsWith('/'))
    throw invalid(`${field} must be a multiaddr such as ${EXAMPLE}`)
  if (node.length > MAX_HOST_NODE_CHARS) throw invalid(`${field} is longer than ${MAX_HOST_NODE_CHARS} characters`)
  let components: ReturnType<ReturnType<typeof multiaddr>['getComponents']>
  let canonical: string
  try {
    const parsed = multiaddr(node)
    components = parsed.getComponents()
    canonical = parsed.toString()
  } catch (error) {
    throw invalid(`${field} must be a multiaddr such as ${EXAMPLE}: ${(error as Error).message}`)
  }
  const host = components[0]!
  if (!HOST_PROTOCOLS.has(host.name)) {
    throw invalid(`${field} must start with the peer's host (/ip4, /ip6, /dns, /dns4 or /dns6), not /${host.name}`)
  }
  if (host.name.startsWith('dns') && !HOST_NAME.test(host.value ?? '')) {
    throw invalid(`${field} names ${JSON.stringify(host.value?.slice(0, 100))}, which is not a host name`)
  }
  const last = components.at(-1)!
  if (last.name !== 'p2p') throw invalid(`${field} must end with the peer's id (/p2p/12D3KooW…)`)
  if (!isPeerId(last.value ?? '')) throw invalid(`${field} ends with /p2p/${last.value?.slice(0, 100)}, not a peer id`)
  return canonical
}

/** A libp2p peer id: a sha2-256 or identity multihash in base58btc, or a CIDv1 of a libp2p key. */
function isPeerId(text: string): boolean {
  try {
    if (text.startsWith('Qm') || text.startsWith('1')) {
      const code = Digest.decode(base58btc.baseDecode(text)).code
      return code === SHA2_256 || code === IDENTITY
    }
    return CID.parse(text).code === LIBP2P_KEY
  } catch {
    return false
  }
}
