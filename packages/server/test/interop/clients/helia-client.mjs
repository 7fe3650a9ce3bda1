// Fetches content from one trustless gateway with Helia's own clients and reports what came back.
// Run by the Node 22 binary (current Helia crashes on import under Node 20), never by vitest itself.
//
// stdin:  {"gateway": "http://127.0.0.1:PORT", "timeoutMs": 10000,
//          "items": [{"cid": "bafy…", "path": "sub/mid.bin"}, {"cid": "bafy…", "ls": true}]}
// stdout: {"results": [...], "refused": [...]}, one result per item, in order:
//          {"unixfs": {"sha256": "…", "size": N} | {"entries": [{"name", "cid"}]} | {"error": "…"},
//           "verifiedFetch": {"status": 200, "sha256": "…", "size": N} | {"status"?, "error": "…"}}
//          (ls items have no verifiedFetch result: a gateway-style directory listing is not a unixfs listing);
//          `refused`: every URL off the gateway that something tried to fetch (and was refused).
//
// Every fetch gets a fresh Helia node, so nothing one client or item fetched is served to another from a
// local blockstore: each result proves its blocks came over HTTP from the gateway.
import { text } from 'node:stream/consumers'
import { trustlessGateway } from '@helia/block-brokers'
import { httpGatewayRouting } from '@helia/routers'
import { unixfs } from '@helia/unixfs'
import { createVerifiedFetch } from '@helia/verified-fetch'
import { createHeliaLight } from 'helia'
import { CID } from 'multiformats/cid'
import { digestOf } from './digest.mjs'

const { gateway, timeoutMs, items } = JSON.parse(await text(process.stdin))

// Tests must never reach outside this machine: every HTTP request Helia makes goes through the global
// fetch, which now refuses anything but the gateway under test and records the attempt for the test.
const refused = []
const realFetch = globalThis.fetch
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if (url.origin === new URL(gateway).origin) return realFetch(input, init)
  refused.push(url.href)
  return Promise.reject(new Error(`interop client: refused a request off the gateway: ${url.href}`))
}

// `createHeliaLight` is `createHelia` without its three networking mixins (libp2p + bitswap, delegated
// routing to delegated-ipfs.dev, and public recursive gateways). The only way out is the one gateway under
// test: a trustless-gateway block broker fed by a router that names that gateway as every CID's provider.
// allowInsecure/allowLocal: the broker drops http:// and loopback providers by default.
async function startHelia() {
  const helia = createHeliaLight({
    blockBrokers: [trustlessGateway({ allowInsecure: true, allowLocal: true })],
    routers: [httpGatewayRouting({ gateways: [gateway], shuffle: false })],
  })
  await helia.start()
  return helia
}

// One bounded attempt: a failure (404 → LoadBlockFailedError, a hash mismatch, a timeout) is a result.
async function attempt(run) {
  const helia = await startHelia()
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    return await run(helia, signal)
  } catch (err) {
    return { error: `${err?.name ?? 'Error'}: ${err?.message ?? err}` }
  } finally {
    await helia.stop()
  }
}

async function viaUnixfs({ cid, path, ls }) {
  return attempt(async (helia, signal) => {
    const fs = unixfs(helia)
    if (!ls) return digestOf(fs.cat(CID.parse(cid), { path, signal }))
    const entries = []
    for await (const entry of fs.ls(CID.parse(cid), { path, signal })) {
      entries.push({ name: entry.name, cid: entry.cid.toString() })
    }
    return { entries }
  })
}

async function viaVerifiedFetch({ cid, path }) {
  return attempt(async (helia, signal) => {
    const verifiedFetch = await createVerifiedFetch(helia)
    const res = await verifiedFetch(path ? `ipfs://${cid}/${path}` : `ipfs://${cid}`, { signal })
    if (!res.ok) return { status: res.status, error: (await res.text()).slice(0, 300) }
    return { status: res.status, ...(await digestOf(res.body)) }
  })
}

// Items run concurrently so a case that fails by timing out costs the run one timeout, not one each.
const results = await Promise.all(
  items.map(async (item) =>
    item.ls
      ? { unixfs: await viaUnixfs(item) }
      : { unixfs: await viaUnixfs(item), verifiedFetch: await viaVerifiedFetch(item) },
  ),
)
process.stdout.write(JSON.stringify({ results, refused }))
