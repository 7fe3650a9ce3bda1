import { createHash } from 'node:crypto'
import { withBitswap } from '@helia/bitswap'
import { withLibp2pLight } from '@helia/libp2p'
import { identify } from '@libp2p/identify'
import { noise } from '@libp2p/noise'
import { tcp } from '@libp2p/tcp'
import { yamux } from '@libp2p/yamux'
import { createHeliaLight } from 'helia'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import { multiaddr } from '@multiformats/multiaddr'
import { startIpfsNode } from '../src/index.js'

const bytes = new TextEncoder().encode('hello bitswap')
const cid = CID.createV1(raw.code, await sha256.digest(bytes))
const node = await startIpfsNode({ listen: ['/ip4/127.0.0.1/tcp/0'], peerKeyFile: '/tmp/p2p-smoke/key', publicBlock: async (c) => (c === cid.toString() ? bytes : undefined) })
console.log(node.info())
const client = withBitswap(withLibp2pLight(createHeliaLight({}), { addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] }, transports: [tcp()], connectionEncrypters: [noise()], streamMuxers: [yamux()], services: { identify: identify() } }))
await client.start()
const got = []
for await (const c of client.blockstore.get(cid, { signal: AbortSignal.timeout(10000), providers: [multiaddr(node.info().addrs[0])] })) got.push(c)
console.log('client got', new TextDecoder().decode(got[0]))
// the fetcher, from the client as host node
const other = new TextEncoder().encode('held by the client')
const otherCid = CID.createV1(raw.code, await sha256.digest(other))
await client.blockstore.put(otherCid, other)
const addr = client.libp2p.getMultiaddrs()[0].toString()
console.log('fetched', new TextDecoder().decode(await node.fetcher.getBlock(otherCid.toString(), { hostNodes: [addr], signal: AbortSignal.timeout(10000) })))
await client.stop(); await node.stop()
