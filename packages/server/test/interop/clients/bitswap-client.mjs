// Fetches content from one Pinfold server over the IPFS network with Helia's own clients and reports
// what came back. Run by the Node 22 binary (current Helia needs it), never by vitest itself.
//
// stdin:  {"peer": "/ip4/127.0.0.1/tcp/PORT/p2p/12D3…", "router": "http://127.0.0.1:PORT", "timeoutMs": 10000,
//          "items": [{"via": "bitswap", "cid": "bafy…", "path": "sub/mid.bin", "timeoutMs"?: 3000},
//                    {"via": "bitswap-block", "cid": "bafy…"},
//                    {"via": "verified-fetch", "cid": "bafy…"}]}
// stdout: {"results": [...], "refused": [...]}, one result per item, in order:
//          {"sha256": "…", "size": N} | {"status": N, "sha256", "size"} (verified-fetch) | {"error": "…"}
//          `refused`: every URL off the router that something tried to fetch (and was refused).
//
// - bitswap: a Helia node with libp2p (TCP, noise, yamux, identify) and bitswap, no router, no gateway,
//   no discovery: it dials `peer` and nothing else, so every block it verifies came over bitswap from it.
// - bitswap-block: the same node asks for one block by its CID (a private file's root must never come).
// - verified-fetch: @helia/verified-fetch with `routers: [router]` as its only way to find providers,
//   no gateways, no bootstrap peers: it finds Pinfold through Pinfold's /routing/v1/providers.
// Every item gets a fresh node, so nothing fetched for one is served to another from a local blockstore.
import { text } from 'node:stream/consumers'
import { withBitswap } from '@helia/bitswap'
import { withLibp2pLight } from '@helia/libp2p'
import { unixfs } from '@helia/unixfs'
import { createVerifiedFetch } from '@helia/verified-fetch'
import { identify } from '@libp2p/identify'
import { noise } from '@libp2p/noise'
import { tcp } from '@libp2p/tcp'
import { yamux } from '@libp2p/yamux'
import { multiaddr } from '@multiformats/multiaddr'
import { createHeliaLight } from 'helia'
import { CID } from 'multiformats/cid'
import { digestOf } from './digest.mjs'

const { peer, router, timeoutMs, items } = JSON.parse(await text(process.stdin))

// Tests must never reach outside this machine: HTTP goes only to the router under test.
const refused = []
const realFetch = globalThis.fetch
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if (router && url.origin === new URL(router).origin) return realFetch(input, init)
  refused.push(url.href)
  return Promise.reject(new Error(`interop client: refused a request off the router: ${url.href}`))
}

async function bitswapNode() {
  const helia = withBitswap(
    withLibp2pLight(createHeliaLight(), {
      transports: [tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      services: { identify: identify() },
    }),
  )
  await helia.start()
  await dialWithRetries(helia, multiaddr(peer))
  return helia
}

// libp2p's inbound limits (a few new connections per second per host) may reset a dial made right
// after the previous item's connection: a reset dial is tried again, a refusal of a block is not.
async function dialWithRetries(helia, address) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await helia.libp2p.dial(address)
    } catch (err) {
      if (attempt >= 5 || !/ECONNRESET|EncryptionFailed|closed/i.test(`${err?.name} ${err?.message}`)) throw err
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
    }
  }
}

// One bounded attempt: a failure (a dial refused, a block never sent, a timeout) is a result.
async function attempt(item, start, run) {
  let node
  const signal = AbortSignal.timeout(item.timeoutMs ?? timeoutMs)
  try {
    node = await start()
    return await run(node, signal)
  } catch (err) {
    return { error: `${err?.name ?? 'Error'}: ${err?.message ?? err}` }
  } finally {
    await node?.stop()
  }
}

const runners = {
  bitswap: (item) =>
    attempt(item, bitswapNode, (helia, signal) =>
      digestOf(unixfs(helia).cat(CID.parse(item.cid), { path: item.path, signal })),
    ),
  'bitswap-block': (item) =>
    attempt(item, bitswapNode, async (helia, signal) => {
      // the control block proves the connection works; its failure is reported as such
      if (item.control) {
        try {
          await helia.blockstore.get(CID.parse(item.control), { signal: AbortSignal.timeout(timeoutMs) })
        } catch (err) {
          return { error: `control block not received: ${err?.name ?? 'Error'}: ${err?.message ?? err}` }
        }
      }
      return digestOf(helia.blockstore.get(CID.parse(item.cid), { signal }))
    }),
  'verified-fetch': ({ cid, path, ...item }) =>
    attempt(
      item,
      () =>
        createVerifiedFetch({
          routers: [router],
          gateways: [],
          allowInsecure: true,
          allowLocal: true,
          // no bootstrap peers, no mDNS: the router is the only way to learn of a provider
          libp2pConfig: { peerDiscovery: [] },
        }),
      async (verifiedFetch, signal) => {
        const res = await verifiedFetch(path ? `ipfs://${cid}/${path}` : `ipfs://${cid}`, { signal })
        if (!res.ok) return { status: res.status, error: (await res.text()).slice(0, 300) }
        return { status: res.status, ...(await digestOf(res.body)) }
      },
    ),
}

// One item at a time: libp2p refuses a host more than 5 new connections a second
// (`inboundConnectionThreshold`), and every item here is a new node dialling from 127.0.0.1.
const results = []
for (const item of items) results.push(await runners[item.via](item))
process.stdout.write(JSON.stringify({ results, refused }))
process.exit(0)
