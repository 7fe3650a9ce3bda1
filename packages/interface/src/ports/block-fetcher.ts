import type { CallOptions } from '../call-options.js'

/**
 * Where pin-by-CID jobs fetch blocks that Pinfold does not hold yet: trustless HTTP gateways, IPFS
 * peers over bitswap. A source only fetches; the caller re-hashes every block against its CID before
 * it keeps it, so a source never has to be trusted.
 */
export interface BlockFetcher {
  /** A short name for logs and failure reasons, e.g. `gateways` or `bitswap`. */
  readonly name: string
  /**
   * The bytes of one block, by its CID in string form. Rejects with `NOT_FOUND` when no provider
   * this source can reach has it, `ABORTED` when the signal fires.
   */
  getBlock(cid: string, options: BlockFetchOptions): Promise<Uint8Array>
}

export interface BlockFetchOptions extends CallOptions {
  /**
   * Multiaddrs of peers the requester says hold the content (Pinata's `host_nodes`): a peer-to-peer
   * source dials them first; other sources ignore them.
   */
  readonly hostNodes?: readonly string[] | undefined
}
