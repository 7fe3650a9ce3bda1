import { join } from 'node:path'
import { type BlockFetcher, type FileService, PinfoldError } from '@pinfold/core'
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

/** The IPFS node before it starts: its fetcher exists already, for the service's pin jobs. */
export interface PreparedIpfsNode {
  /**
   * Pin-by-CID's bitswap source (`name: 'bitswap'`), handed to `createFileService` before the node
   * runs: the node serves the service's public blocks, so the service exists first. Until `start`
   * has resolved it answers `UNAVAILABLE`.
   */
  fetcher: BlockFetcher
  start(service: FileService): Promise<RunningIpfsNode>
}

/**
 * The embedded IPFS node `PINFOLD_IPFS_LISTEN` asks for. Checks the Node.js version now (before
 * anything is built); `@pinfold/ipfs-network` (libp2p, Helia) is imported by `start` only: a server
 * without the setting never loads it.
 */
export function prepareIpfsNode(
  config: IpfsConfig,
  dataDir: string,
  warn: (message: string, error: unknown) => void,
): PreparedIpfsNode {
  const major = Number(process.versions.node.split('.')[0])
  if (major < IPFS_MIN_NODE_MAJOR) {
    throw new Error(
      `PINFOLD_IPFS_LISTEN needs Node.js ${IPFS_MIN_NODE_MAJOR} or later (libp2p uses Promise.withResolvers); ` +
        `this is Node.js ${process.versions.node}. Unset it, or run pinfold on Node ${IPFS_MIN_NODE_MAJOR}+.`,
    )
  }
  let started: RunningIpfsNode | undefined
  return {
    fetcher: {
      name: 'bitswap',
      getBlock(cid, options) {
        if (!started) return Promise.reject(new PinfoldError('UNAVAILABLE', 'the IPFS node has not started yet'))
        return started.fetcher.getBlock(cid, options)
      },
    },
    async start(service) {
      started = await startIpfsNode(config, dataDir, service, warn)
      return started
    },
  }
}

async function startIpfsNode(
  config: IpfsConfig,
  dataDir: string,
  service: FileService,
  warn: (message: string, error: unknown) => void,
): Promise<RunningIpfsNode> {
  const network = await import('@pinfold/ipfs-network')
  const node = await network.startIpfsNode({
    listen: config.listen,
    announce: config.announce,
    peerKey: config.peerKey,
    peerKeyFile: join(dataDir, 'ipfs-peer-key'),
    publicBlock: (cid, options) => service.gateway.publicBlock(cid, options),
    onWarning: warn,
    privateAddresses: config.privateAddresses,
    dht:
      config.dht === 'off'
        ? undefined
        : {
            mode: config.dht,
            bootstrap: config.bootstrap,
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
