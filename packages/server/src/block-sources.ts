import { createGatewayFetcher } from '@pinfold/block-fetchers'
import type { BlockFetcher } from '@pinfold/core'
import type { ServerConfig } from './config.js'

/**
 * Where pin-by-CID jobs fetch blocks, asked in this order for each block. Each configured source
 * is one entry: the trustless gateways of `PINFOLD_IPFS_GATEWAYS` now; a bitswap source (peers of
 * `host_nodes`) is one more line here.
 */
export function blockSources(config: ServerConfig): BlockFetcher[] {
  const sources: BlockFetcher[] = []
  if (config.pinning.gateways.length > 0) sources.push(createGatewayFetcher({ gateways: config.pinning.gateways }))
  return sources
}
