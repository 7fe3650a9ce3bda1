import { type BlockFetcher, lazyModule } from '@pinfold/core'
import type { ServerConfig } from './config.js'

/**
 * Helia's trustless-gateway broker and the libp2p utilities under it (~8 MB of heap, a second or
 * more of start-up on a small machine) are imported by the first block a pin-by-CID job fetches,
 * not at start: most servers never pin by CID, and one that does waits only once.
 */
const loadGatewayFetchers = lazyModule('fetching blocks from IPFS gateways', () => import('@pinfold/block-fetchers'))

/**
 * Where pin-by-CID jobs fetch blocks, asked in this order for each block. Each configured source
 * is one entry: every trustless gateway of `PINFOLD_IPFS_GATEWAYS` on its own, so a gateway that
 * accepts and never answers loses only its own time budget for a block
 * (`PINFOLD_PIN_BLOCK_TIMEOUT_MS`) before the next one is asked; a bitswap source (peers of
 * `host_nodes`) is one more line here. The URLs were checked by `readConfig`.
 */
export function blockSources(
  config: Pick<ServerConfig, 'pinning'>,
  /** Where `createGatewayFetcher` comes from (tests: a loader that fails). */
  load: () => Promise<Pick<typeof import('@pinfold/block-fetchers'), 'createGatewayFetcher'>> = loadGatewayFetchers,
): BlockFetcher[] {
  return config.pinning.gateways.map((url) => {
    let fetcher: BlockFetcher | undefined
    return {
      name: `gateway ${new URL(url).host}`,
      async getBlock(cid, options) {
        if (!fetcher) {
          const { createGatewayFetcher } = await load()
          fetcher ??= createGatewayFetcher({ gateways: [url] })
        }
        return fetcher.getBlock(cid, options)
      },
    }
  })
}
