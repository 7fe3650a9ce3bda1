// Run by the Node 22 binary through tsx (libp2p needs Node 22), never by vitest itself: real libp2p
// peers on 127.0.0.1 around `startIpfsNode`, one scenario per run, its findings as JSON on stdout.
//
//   fetcher: a Helia peer holds a block; the node's bitswap fetcher gets it given the peer's multiaddr as
//            `hostNodes`; a block nobody has fails within the signal; a bad multiaddr is INVALID_INPUT.
//   dht:     a DHT server peer on loopback is the node's only bootstrap peer; the node announces the public
//            roots it is given, and the peer then finds the node as their provider (and no provider for a
//            root it was not given).
import { withBitswap } from '@helia/bitswap'
import { withLibp2pLight } from '@helia/libp2p'
import { identify } from '@libp2p/identify'
import { kadDHT, passthroughMapper } from '@libp2p/kad-dht'
import { noise } from '@libp2p/noise'
import { ping } from '@libp2p/ping'
import { tcp } from '@libp2p/tcp'
import { yamux } from '@libp2p/yamux'
import { createHeliaLight } from 'helia'
import { createLibp2p } from 'libp2p'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import { startIpfsNode } from '../src/index.js'

const scenario = process.argv[2]
const keyFile = process.argv[3]!
const rawCid = async (text: string) => CID.createV1(raw.code, await sha256.digest(new TextEncoder().encode(text)))
const failure = (error: unknown) => ({ code: (error as { code?: string }).code, message: String(error) })

async function fetcher() {
  const bytes = new TextEncoder().encode('held by a Helia peer')
  const cid = await rawCid('held by a Helia peer')
  const peer = withBitswap(
    withLibp2pLight(createHeliaLight(), {
      addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
      transports: [tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      services: { identify: identify() },
    }),
  )
  await peer.start()
  await peer.blockstore.put(cid, bytes)
  // the node holds nothing public: whatever it returns came from the peer
  const node = await startIpfsNode({
    listen: ['/ip4/127.0.0.1/tcp/0'],
    peerKeyFile: keyFile,
    publicBlock: async () => undefined,
    privateAddresses: true,
  })
  // the same node as deployed on the internet: loopback host nodes are not dialled
  const guarded = await startIpfsNode({
    listen: ['/ip4/127.0.0.1/tcp/0'],
    peerKeyFile: `${keyFile}-guarded`,
    publicBlock: async () => undefined,
  })
  const hostNodes = [peer.libp2p.getMultiaddrs()[0]!.toString()]
  try {
    const got = await node.fetcher.getBlock(cid.toString(), { hostNodes, signal: AbortSignal.timeout(10_000) })
    const missing = await rawCid('nobody has this')
    const started = Date.now()
    const absent = await node.fetcher
      .getBlock(missing.toString(), { hostNodes, signal: AbortSignal.timeout(1_500) })
      .then(() => ({ code: 'FOUND' }), failure)
    const badAddr = await node.fetcher
      .getBlock(cid.toString(), { hostNodes: ['not-a-multiaddr'] })
      .then(() => ({}), failure)
    const privateHost = await guarded.fetcher
      .getBlock(cid.toString(), { hostNodes, signal: AbortSignal.timeout(5_000) })
      .then(() => ({ code: 'FOUND' }), failure)
    return {
      privateHost,
      name: node.fetcher.name,
      got: new TextDecoder().decode(got),
      absent: { ...absent, ms: Date.now() - started },
      badAddr,
    }
  } finally {
    await node.stop()
    await guarded.stop()
    await peer.stop()
  }
}

async function dht() {
  // the only other DHT peer: a server on loopback that keeps private addresses, as a LAN DHT would
  const bootstrapPeer = await createLibp2p({
    addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: {
      identify: identify(),
      ping: ping(),
      dht: kadDHT({ clientMode: false, peerInfoMapper: passthroughMapper }),
    },
  })
  await bootstrapPeer.services.dht.setMode('server')
  const announced = await rawCid('a public root')
  const unannounced = await rawCid('a private root')
  let runs = 0
  const node = await startIpfsNode({
    listen: ['/ip4/127.0.0.1/tcp/0'],
    peerKeyFile: keyFile,
    publicBlock: async () => undefined,
    privateAddresses: true,
    dht: {
      mode: 'server',
      bootstrap: [bootstrapPeer.getMultiaddrs()[0]!.toString()],
      // the root is public for the first run only (then deleted, say): the second run withdraws it
      roots: async function* () {
        if (runs++ === 0) yield announced.toString()
      },
      reprovideIntervalMs: 1_500,
      provideConcurrency: 2,
    },
  })
  try {
    const runsDone = async (count: number) => {
      const deadline = Date.now() + 20_000
      while ((node.info().dht?.reprovide.runs ?? 0) < count && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      return node.info().dht
    }
    const firstRun = await runsDone(1)
    const providers = async (cid: CID) => {
      const found: string[] = []
      for await (const p of bootstrapPeer.contentRouting.findProviders(cid, { signal: AbortSignal.timeout(5_000) })) {
        found.push(p.id.toString())
      }
      return found
    }
    const announcedProviders = await providers(announced)
    const unannouncedProviders = await providers(unannounced).catch(() => [])
    return { nodePeerId: node.peerId, firstRun, secondRun: await runsDone(2), announcedProviders, unannouncedProviders }
  } finally {
    await node.stop()
    await bootstrapPeer.stop()
  }
}

const result = scenario === 'fetcher' ? await fetcher() : await dht()
process.stdout.write(JSON.stringify(result))
process.exit(0)
