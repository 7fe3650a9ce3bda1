import { withBitswap } from '@helia/bitswap'
import { withLibp2pLight } from '@helia/libp2p'
import { bootstrap } from '@libp2p/bootstrap'
import { identify } from '@libp2p/identify'
import type { PrivateKey } from '@libp2p/interface'
import { type KadDHT, kadDHT, passthroughMapper, removePrivateAddressesMapper } from '@libp2p/kad-dht'
import { noise } from '@libp2p/noise'
import { ping } from '@libp2p/ping'
import { tcp } from '@libp2p/tcp'
import { webSockets } from '@libp2p/websockets'
import { yamux } from '@libp2p/yamux'
import type { BlockFetcher } from '@pinfold/interface'
import { createHeliaLight } from 'helia'
import { dnsaddrResolver } from 'libp2p'
import { CID } from 'multiformats/cid'
import { AMINO_BOOTSTRAP_PEERS } from './amino.js'
import { createBitswapFetcher } from './bitswap-fetcher.js'
import { createDialGuard } from './dial-guard.js'
import { checkNodeVersion } from './node-version.js'
import { loadOrCreatePeerKey, parsePeerKey } from './peer-key.js'
import { type PublicBlockReader, PublicBlockstore } from './public-blockstore.js'
import { type Reprovider, type ReproviderStatus, startReprovider } from './reprovider.js'

export interface DhtOptions {
  /** `client` asks the DHT and announces to it; `server` also answers other peers' DHT queries. */
  mode: 'client' | 'server'
  /** Peers to join the DHT through; default the Amino bootstrap peers. */
  bootstrap?: readonly string[] | undefined
  /** Every public root to announce, read afresh at each reprovide run. */
  roots(options: { signal: AbortSignal }): AsyncIterable<string>
  reprovideIntervalMs?: number | undefined
  provideConcurrency?: number | undefined
}

export interface IpfsNodeOptions {
  /** Multiaddrs to listen on, e.g. `/ip4/0.0.0.0/tcp/4001`, `/ip4/0.0.0.0/tcp/4002/ws`. */
  listen: readonly string[]
  /** Addresses to tell peers instead of the listening ones (behind NAT or a proxy). */
  announce?: readonly string[] | undefined
  /** The identity: a base64 libp2p private key (Kubo's `Identity.PrivKey`)... */
  peerKey?: string | undefined
  /** ...or the file it is kept in, created on first start (mode 0600). One of the two is required. */
  peerKeyFile?: string | undefined
  /** Reads a block of public content (never private): `FileService.gateway.publicBlock`. */
  publicBlock: PublicBlockReader
  /** Join the DHT and announce public roots on it; absent: no DHT at all. */
  dht?: DhtOptions | undefined
  /**
   * Private and loopback addresses are for a LAN or a test network: only then are they kept in DHT
   * records and dialled at all (pin-by-CID host nodes, DHT and bootstrap peers). Off by default: on
   * the internet such addresses send peers into their own networks, and a host node a client names
   * could make this node probe the operator's. Either way every dial is decided on the resolved IP
   * (`dial-guard.ts`), and Unix socket paths are never dialled.
   */
  privateAddresses?: boolean | undefined
  /** Problems that do not stop the node (a block that failed its hash check, a failed announcement). */
  onWarning?: ((message: string, error: unknown) => void) | undefined
}

export interface IpfsNodeInfo {
  peerId: string
  /** Where peers reach the node, each ending in `/p2p/<peerId>`. */
  addrs: string[]
  dht: { mode: 'client' | 'server'; reprovide: ReproviderStatus } | undefined
}

export interface IpfsNode {
  readonly peerId: string
  info(): IpfsNodeInfo
  /** Pin-by-CID's bitswap source over this node (`name: 'bitswap'`). */
  readonly fetcher: BlockFetcher
  stop(): Promise<void>
}

/**
 * Starts the embedded libp2p node: TCP and WebSockets, noise, yamux, identify, ping and bitswap,
 * serving peers' wants from public content only, plus the Amino DHT when `dht` is given.
 */
export async function startIpfsNode(options: IpfsNodeOptions): Promise<IpfsNode> {
  // a clear refusal rather than libp2p's TypeError from deep inside its first start
  checkNodeVersion()
  const warn = options.onWarning ?? (() => {})
  const privateKey = await identityOf(options)
  const dht = options.dht
  // A Helia node whose blockstore is Pinfold's public content, read-only: bitswap (Helia's own, as a
  // mixin) answers wants from it, and Helia's routing asks the node's DHT when there is one.
  const blockstore = new PublicBlockstore(options.publicBlock, (cid, error) =>
    warn(`cannot serve block ${cid} over bitswap`, error),
  )
  // every dial, whoever named the address, resolves names here and is decided on the IP it will use
  const guard = createDialGuard({ allowPrivate: options.privateAddresses })
  const helia = withBitswap(
    withLibp2pLight(createHeliaLight({ blockstore }), {
      privateKey,
      connectionGater: guard.gater,
      connectionManager: { resolvers: { dnsaddr: dnsaddrResolver, dns: guard.resolver } },
      addresses: { listen: [...options.listen], announce: options.announce ? [...options.announce] : [] },
      transports: [tcp(), webSockets()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      peerDiscovery: dht ? [bootstrap({ list: [...(dht.bootstrap ?? AMINO_BOOTSTRAP_PEERS)] })] : [],
      services: {
        identify: identify(),
        ping: ping(),
        ...(dht && {
          dht: kadDHT({
            clientMode: dht.mode === 'client',
            peerInfoMapper: options.privateAddresses ? passthroughMapper : removePrivateAddressesMapper,
          }),
        }),
      },
    }),
  )
  let reprovider: Reprovider | undefined
  try {
    await helia.start()
    const libp2p = helia.libp2p
    if (dht?.mode === 'server') await (libp2p.services as { dht?: KadDHT }).dht?.setMode('server')
    if (dht) {
      reprovider = startReprovider({
        roots: dht.roots,
        provide: (cid, { signal }) => libp2p.contentRouting.provide(CID.parse(cid), { signal }),
        withdraw: (cid) => libp2p.contentRouting.cancelReprovide(CID.parse(cid)),
        intervalMs: dht.reprovideIntervalMs,
        concurrency: dht.provideConcurrency,
        onError: (cid, error) => warn(`cannot announce ${cid} on the DHT`, error),
      })
    }
    const peerId = libp2p.peerId.toString()
    return {
      peerId,
      fetcher: createBitswapFetcher(helia.blockstore, { guard }),
      info: () => ({
        peerId,
        addrs: libp2p.getMultiaddrs().map(String),
        dht: dht && reprovider ? { mode: dht.mode, reprovide: reprovider.status() } : undefined,
      }),
      async stop() {
        await reprovider?.stop()
        await helia.stop()
      },
    }
  } catch (error) {
    await reprovider?.stop()
    await helia.stop()
    throw error
  }
}

function identityOf(options: IpfsNodeOptions): Promise<PrivateKey> {
  if (options.peerKey) return Promise.resolve(parsePeerKey(options.peerKey))
  if (options.peerKeyFile) return loadOrCreatePeerKey(options.peerKeyFile)
  throw new Error('startIpfsNode: give peerKey or peerKeyFile')
}
