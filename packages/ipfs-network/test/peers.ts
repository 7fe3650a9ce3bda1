// Run by the Node 22 binary through tsx (libp2p needs Node 22), never by vitest itself: real libp2p
// peers on 127.0.0.1 around `startIpfsNode`, one scenario per run, its findings as JSON on stdout.
//
//   fetcher: a Helia peer holds a block; the node's bitswap fetcher gets it given the peer's multiaddr as
//            `hostNodes`; a block nobody has fails within the signal; a bad multiaddr is INVALID_INPUT.
//   guard:   a plain TCP listener on every interface and a Unix socket count the connections they
//            get; a node as deployed on the internet is asked for a block with host nodes that all
//            lead back to this machine (names, mapped and NAT64 IPv6, 0.0.0.0, the socket) or into
//            private, link-local and multicast ranges, and must open none; a node with private
//            addresses allowed must dial the same listener by its name.
//   dht:     a DHT server peer on loopback is the node's only bootstrap peer; the node announces the public
//            roots it is given, and the peer then finds the node as their provider (and no provider for a
//            root it was not given).
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
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

/** A listener that only counts who connects, and hangs up: no libp2p peer answers behind it. */
async function countingListener(listen: (server: Server) => void) {
  const seen: string[] = []
  const server = createServer((socket) => {
    seen.push(socket.remoteAddress ?? 'unix socket')
    socket.destroy()
  })
  await new Promise<void>((resolve) => {
    server.once('listening', resolve)
    listen(server)
  })
  return { server, seen }
}

async function guard() {
  const dir = await mkdtemp(join(tmpdir(), 'pinfold-dial-guard-'))
  // every interface, IPv4 and IPv6: whatever local address a host node leads to ends up here
  const tcp = await countingListener((server) => server.listen(0, '::'))
  const port = (tcp.server.address() as { port: number }).port
  const socketPath = join(dir, 'local.sock')
  const unix = await countingListener((server) => server.listen(socketPath))
  const cid = await rawCid('nobody has this either')
  const node = await startIpfsNode({
    listen: ['/ip4/127.0.0.1/tcp/0'],
    peerKeyFile: keyFile,
    publicBlock: async () => undefined,
  })
  const allowing = await startIpfsNode({
    listen: ['/ip4/127.0.0.1/tcp/0'],
    peerKeyFile: `${keyFile}-allowing`,
    publicBlock: async () => undefined,
    privateAddresses: true,
  })
  // a real peer id (the other node's; libp2p never dials its own): only the address is wrong
  const peer = `/p2p/${allowing.peerId}`
  const otherPeer = `/p2p/${node.peerId}`
  const local = [
    `/dns4/LOCALHOST/tcp/${port}${peer}`,
    `/dns4/localhost/tcp/${port}${peer}`,
    `/dns4/${hostname()}/tcp/${port}${peer}`,
    `/dns/${hostname().toUpperCase()}/tcp/${port}${peer}`,
    `/dns6/localhost/tcp/${port}${peer}`,
    `/ip4/0.0.0.0/tcp/${port}${peer}`,
    `/ip4/127.0.0.2/tcp/${port}${peer}`,
    `/ip6/::ffff:127.0.0.1/tcp/${port}${peer}`,
    `/ip6/::ffff:0.0.0.0/tcp/${port}${peer}`,
    `/ip6/64:ff9b::7f00:1/tcp/${port}${peer}`,
    `/ip6/::/tcp/${port}${peer}`,
    `/ip6/::1/tcp/${port}${peer}`,
    `/ip4/127.0.0.1/tcp/${port}/ws${peer}`,
    // a public IP, but the WebSocket transport connects to the TLS name (wss://localhost:port)
    `/ip4/8.8.8.8/tcp/${port}/tls/sni/localhost/ws${peer}`,
    `/ip4/8.8.8.8/tcp/${port}/tls/sni/LOCALHOST/ws${peer}`,
    `/unix/${encodeURIComponent(socketPath)}${peer}`,
  ]
  const elsewhere = [
    `/ip4/10.0.0.1/tcp/${port}${peer}`,
    `/ip4/172.16.0.1/tcp/${port}${peer}`,
    `/ip4/192.168.0.1/tcp/${port}${peer}`,
    `/ip4/169.254.169.254/tcp/${port}${peer}`,
    `/ip6/fe80::1/tcp/${port}${peer}`,
    `/ip6/fd00::2/tcp/${port}${peer}`,
    `/ip4/224.0.0.1/tcp/${port}${peer}`,
    `/ip6/ff02::1/tcp/${port}${peer}`,
  ]
  const ask = (fetcher: typeof node.fetcher, hostNodes: string[], ms: number) =>
    fetcher
      .getBlock(cid.toString(), { hostNodes, signal: AbortSignal.timeout(ms) })
      .then(() => ({ code: 'FOUND', message: '' }), failure)
  try {
    const all = [...local, ...elsewhere]
    const answers = await Promise.all(all.map((hostNode) => ask(node.fetcher, [hostNode], 3_000)))
    const refused = Object.fromEntries(all.map((hostNode, i) => [hostNode, answers[i]]))
    // all at once too: one refused node must not let another through
    const together = await ask(node.fetcher, [...local, ...elsewhere], 3_000)
    // a dial that was let through would have reached the listener by now
    await new Promise((resolve) => setTimeout(resolve, 500))
    const seenWhileRefused = { tcp: [...tcp.seen], unix: [...unix.seen] }
    const allowedByName = await ask(allowing.fetcher, [`/dns4/LOCALHOST/tcp/${port}${otherPeer}`], 3_000)
    const allowedUnix = await ask(allowing.fetcher, [`/unix/${encodeURIComponent(socketPath)}${otherPeer}`], 3_000)
    await new Promise((resolve) => setTimeout(resolve, 500))
    return {
      hostNodes: all,
      refused,
      together,
      seenWhileRefused,
      allowedByName,
      allowedUnix,
      seenWhenAllowed: {
        tcp: tcp.seen.slice(seenWhileRefused.tcp.length),
        unix: unix.seen.slice(seenWhileRefused.unix.length),
      },
    }
  } finally {
    await node.stop()
    await allowing.stop()
    tcp.server.close()
    unix.server.close()
    await rm(dir, { recursive: true, force: true })
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

const result = scenario === 'fetcher' ? await fetcher() : scenario === 'guard' ? await guard() : await dht()
process.stdout.write(JSON.stringify(result))
process.exit(0)
