// Pins content held by a Helia node to a Pinfold server with @helia/remote-pinning (the Pinning
// Service API client of the Helia project) and reports what came back. Run by the Node 22 binary
// (current Helia needs it), never by vitest itself.
//
// stdin:  {"endpoint": "http://127.0.0.1:PORT/psa", "token": "…", "timeoutMs": 20000}
// stdout: {"cid", "peerId", "addrs", "pinned", "isPinned", "got", "listed", "gateway", "afterRm", "refused"}
//
// The node holds the only copy of the content: a TCP listener on 127.0.0.1, bitswap, no router, no
// bootstrap peers. remote-pinning sends the node's own addresses as `origins`, so Pinfold can only
// get the blocks over bitswap from this node, and it dials the `delegates` Pinfold answers.
import { text } from 'node:stream/consumers'
import { withBitswap } from '@helia/bitswap'
import { withLibp2pLight } from '@helia/libp2p'
import { createRemotePins } from '@helia/remote-pinning'
import { unixfs } from '@helia/unixfs'
import { identify } from '@libp2p/identify'
import { noise } from '@libp2p/noise'
import { tcp } from '@libp2p/tcp'
import { yamux } from '@libp2p/yamux'
import { createHeliaLight } from 'helia'
import { digestOf } from './digest.mjs'

const { endpoint, token, timeoutMs } = JSON.parse(await text(process.stdin))

// Tests must never reach outside this machine: HTTP goes only to the server under test.
const refused = []
const realFetch = globalThis.fetch
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if (url.origin === new URL(endpoint).origin) return realFetch(input, init)
  refused.push(url.href)
  return Promise.reject(new Error(`interop client: refused a request off the server: ${url.href}`))
}

const helia = withBitswap(
  withLibp2pLight(createHeliaLight(), {
    addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: { identify: identify() },
  }),
)
await helia.start()
const out = { refused }
try {
  const bytes = new TextEncoder().encode(`held only by a Helia node, pinned remotely ${Date.now()}`)
  const cid = await unixfs(helia).addBytes(bytes)
  out.cid = cid.toString()
  out.digest = await digestOf([bytes])
  out.peerId = helia.libp2p.peerId.toString()
  out.addrs = helia.libp2p.getMultiaddrs().map(String)
  const pins = createRemotePins(helia, { basePath: endpoint, accessToken: token, pollInterval: 200 })
  const signal = AbortSignal.timeout(timeoutMs)
  out.pinned = []
  for await (const pinned of pins.add(cid, { name: 'from-helia.txt', metadata: { app: 'helia' }, signal })) {
    out.pinned.push(pinned.toString())
  }
  out.isPinned = await pins.isPinned(cid)
  const got = await pins.get(cid)
  out.got = { cid: got.cid.toString(), status: got.status, metadata: got.metadata }
  out.listed = []
  for await (const pin of pins.ls({ name: 'from-helia.txt', signal })) {
    out.listed.push({ cid: pin.cid.toString(), name: pin.name, status: pin.status, metadata: pin.metadata })
  }
  // what the server now serves is what this node holds
  const served = await fetch(`${new URL(endpoint).origin}/ipfs/${cid}`, { signal })
  out.gateway = { status: served.status, ...(await digestOf([new Uint8Array(await served.arrayBuffer())])) }
  for await (const _ of pins.rm(cid, { signal })) {
  }
  out.afterRm = await pins.isPinned(cid)
} catch (err) {
  out.error = `${err?.name ?? 'Error'}: ${err?.message ?? err}`
} finally {
  await helia.stop()
}
process.stdout.write(JSON.stringify(out))
process.exit(0)
