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
 * without the setting never loads it, and an installation without it (an optional peer dependency,
 * so that Node 20 installs bring no Node 22 package) is told which package to add.
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
  const network = await import('@pinfold/ipfs-network').catch((error: NodeJS.ErrnoException) => {
    // an optional peer dependency: installed by whoever turns the node on, as its message says
    if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error
    throw new Error(
      'PINFOLD_IPFS_LISTEN needs the package @pinfold/ipfs-network (libp2p and Helia, Node.js 22+), an optional ' +
        'peer dependency of @pinfold/server: install it next to the server (npm install @pinfold/ipfs-network), or unset PINFOLD_IPFS_LISTEN.',
      { cause: error },
    )
  })
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
