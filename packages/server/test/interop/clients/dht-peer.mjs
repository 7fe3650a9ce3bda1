// A DHT server peer on 127.0.0.1 for the interop tests: the only other member of a private Amino-protocol
// DHT, which the Pinfold server under test bootstraps from. Run by the Node 22 binary.
//
// stdout, first line: {"addr": "/ip4/127.0.0.1/tcp/PORT/p2p/12D3…"}
// stdin, one JSON line per question: {"providersOf": "bafy…"}; stdout answers {"providers": ["12D3…", …]}.
import { createInterface } from 'node:readline'
import { identify } from '@libp2p/identify'
import { kadDHT, passthroughMapper } from '@libp2p/kad-dht'
import { noise } from '@libp2p/noise'
import { ping } from '@libp2p/ping'
import { tcp } from '@libp2p/tcp'
import { yamux } from '@libp2p/yamux'
import { createLibp2p } from 'libp2p'
import { CID } from 'multiformats/cid'

const node = await createLibp2p({
  addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
  transports: [tcp()],
  connectionEncrypters: [noise()],
  streamMuxers: [yamux()],
  // loopback addresses stay in records: this DHT lives on one machine
  services: {
    identify: identify(),
    ping: ping(),
    dht: kadDHT({ clientMode: false, peerInfoMapper: passthroughMapper }),
  },
})
await node.services.dht.setMode('server')
process.stdout.write(`${JSON.stringify({ addr: node.getMultiaddrs()[0].toString() })}\n`)

for await (const line of createInterface({ input: process.stdin })) {
  const { providersOf } = JSON.parse(line)
  const providers = []
  try {
    for await (const p of node.contentRouting.findProviders(CID.parse(providersOf), {
      signal: AbortSignal.timeout(5_000),
    })) {
      providers.push(p.id.toString())
    }
  } catch {}
  process.stdout.write(`${JSON.stringify({ providers })}\n`)
}
await node.stop()
