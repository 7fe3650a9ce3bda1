export { type AddressPolicy, createAddressPolicy } from './address-policy.js'
export { AMINO_BOOTSTRAP_PEERS } from './amino.js'
export { createBitswapFetcher, DEFAULT_BLOCK_TIMEOUT_MS } from './bitswap-fetcher.js'
export { createDialGuard, type DialGuard, type DialGuardOptions, type HostLookup } from './dial-guard.js'
export {
  type DhtOptions,
  type IpfsNode,
  type IpfsNodeInfo,
  type IpfsNodeOptions,
  startIpfsNode,
} from './node.js'
export { loadOrCreatePeerKey, parsePeerKey } from './peer-key.js'
export type { PublicBlockReader } from './public-blockstore.js'
export { DEFAULT_PROVIDE_CONCURRENCY, DEFAULT_REPROVIDE_INTERVAL_MS, type ReproviderStatus } from './reprovider.js'
