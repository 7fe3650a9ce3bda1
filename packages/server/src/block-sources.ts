import { createGatewayFetcher } from '@pinfold/block-fetchers'
import type { BlockFetcher } from '@pinfold/core'
import type { ServerConfig } from './config.js'

/**
 * Where pin-by-CID jobs fetch blocks, asked in this order for each block. Each configured source
 * is one entry: every trustless gateway of `PINFOLD_IPFS_GATEWAYS` on its own, so a gateway that
 * accepts and never answers loses only its own time budget for a block
 * (`PINFOLD_PIN_BLOCK_TIMEOUT_MS`) before the next one is asked; a bitswap source (peers of
 * `host_nodes`) is one more line here.
 */
export function blockSources(config: ServerConfig): BlockFetcher[] {
  return config.pinning.gateways.map((url) => ({
    ...createGatewayFetcher({ gateways: [url] }),
    name: `gateway ${new URL(url).host}`,
  }))
}
