import { join } from 'node:path'
import type { BlockFetcher, FileService } from '@pinfold/core'
import type { IpfsPeer } from '@pinfold/http'
import type { IpfsConfig } from './config.js'

/** libp2p and Helia call `Promise.withResolvers` (Node 22) as soon as peers connect. */
export const IPFS_MIN_NODE_MAJOR = 22

export interface RunningIpfsNode {
  peerId: string
  /** What the routing API and `/healthz` say about the node, read when asked. */
  peer(): IpfsPeer
  /** Pin-by-CID's bitswap source over this node (`name: 'bitswap'`). */
  fetcher: BlockFetcher
  stop(): Promise<void>
}

/**
 * Starts the embedded IPFS node `PINFOLD_IPFS_LISTEN` asks for. `@pinfold/ipfs-network` (libp2p,
 * Helia) is imported here only: a server without the setting never loads it.
 */
export async function startIpfsNode(
  config: IpfsConfig,
  dataDir: string,
  service: FileService,
  warn: (message: string, error: unknown) => void,
): Promise<RunningIpfsNode> {
  const major = Number(process.versions.node.split('.')[0])
  if (major < IPFS_MIN_NODE_MAJOR) {
    throw new Error(
      `PINFOLD_IPFS_LISTEN needs Node.js ${IPFS_MIN_NODE_MAJOR} or later (libp2p uses Promise.withResolvers); ` +
        `this is Node.js ${process.versions.node}. Unset it, or run pinfold on Node ${IPFS_MIN_NODE_MAJOR}+.`,
    )
  }
  const network = await import('@pinfold/ipfs-network')
  const node = await network.startIpfsNode({
    listen: config.listen,
    announce: config.announce,
    peerKey: config.peerKey,
    peerKeyFile: join(dataDir, 'ipfs-peer-key'),
    publicBlock: (cid, options) => service.gateway.publicBlock(cid, options),
    onWarning: warn,
    dht:
      config.dht === 'off'
        ? undefined
        : {
            mode: config.dht,
            bootstrap: config.bootstrap,
            allowPrivateAddresses: config.dhtPrivateAddresses,
            roots: (options) => service.gateway.publicRoots(options),
            reprovideIntervalMs: config.reprovideIntervalMs,
            provideConcurrency: config.provideConcurrency,
          },
  })
  return {
    peerId: node.peerId,
    fetcher: node.fetcher,
    peer() {
      const info = node.info()
      return {
        peerId: info.peerId,
        addrs: info.addrs,
        dht: info.dht && { mode: info.dht.mode, ...info.dht.reprovide },
      }
    },
    stop: () => node.stop(),
  }
}
