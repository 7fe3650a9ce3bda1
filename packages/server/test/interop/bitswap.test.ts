/**
 * Pinfold on the IPFS network, with real peers on 127.0.0.1: `pinfold serve` with PINFOLD_IPFS_LISTEN
 * (run by the Node 22 binary: its libp2p node needs Node 22) serves public content to a Helia node
 * that dials it and fetches over bitswap, is found by @helia/verified-fetch through its own
 * Delegated Routing V1 API, and never gives a private file's blocks to anyone.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chacha } from '@pinfold/testing/gateway'
import { apiClient, TEST_SECRET, testTokens, upload } from '@pinfold/testing/test-api'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChildServer, exited, startChildServer } from '../support/child-server.js'
import { prepareStorage } from '../support/storage-setup.js'
import { FOLDER, type InteropContents, sha256Hex, uploadContents } from './contents.js'
import {
  type BitswapItem,
  type BitswapResult,
  type DhtPeer,
  fetchOverIpfs,
  node22,
  startDhtPeer,
} from './run-clients.js'

/** Three 256 KiB leaves under a root: a private file's root and its leaves must all stay private. */
const PRIVATE = chacha('interop-private', 600_000)
const LEAF = 262_144

describe('interop - Helia peers over bitswap, and delegated routing', () => {
  let dataDir: string
  let server: ChildServer
  let dhtPeer: DhtPeer
  let closeStorage: () => Promise<void>
  let contents: InteropContents
  let privateRoot: string
  let privateLeaf: string
  let ipfs: { peer_id: string; addrs: string[] }
  const results = new Map<string, BitswapResult>()
  let refused: string[]

  // a built server and Node 22 peers start here: 70–100 s on 2 cores at a load of ~20 (vitest.config.ts gives hooks 60 s)
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-ipfs-'))
    dhtPeer = await startDhtPeer()
    const storage = await prepareStorage()
    closeStorage = storage.close
    server = await startChildServer(
      {
        ...storage.env,
        HOST: '127.0.0.1',
        PINFOLD_DATA_DIR: dataDir,
        PINFOLD_AUTH_SECRET: TEST_SECRET,
        PINFOLD_IPFS_LISTEN: '/ip4/127.0.0.1/tcp/0,/ip4/127.0.0.1/tcp/0/ws',
        // a private DHT of two on loopback: the peer above is the only bootstrap peer
        PINFOLD_IPFS_DHT: 'server',
        PINFOLD_IPFS_BOOTSTRAP: dhtPeer.addr,
        PINFOLD_IPFS_PRIVATE_ADDRESSES: 'true',
        PINFOLD_IPFS_REPROVIDE_INTERVAL_MS: '1000',
        // flags meant for this Node 20 process are not for the Node 22 child
        NODE_OPTIONS: '',
      },
      { node: node22() },
    )
    ipfs = server.listening.ipfs as typeof ipfs
    const token = testTokens()
    const api = apiClient(fetch, server.url, token, await token())
    contents = await uploadContents({ api })
    const secret = await upload({ api }, { bytes: PRIVATE }, { network: 'private' })
    privateRoot = secret.body.data.cid as string
    privateLeaf = CID.createV1(raw.code, await sha256.digest(PRIVATE.subarray(LEAF, 2 * LEAF))).toString()

    const items: Record<string, BitswapItem> = {
      'big v1': { via: 'bitswap', cid: contents.big.v1.cid },
      'big v0': { via: 'bitswap', cid: contents.big.v0.cid },
      ...Object.fromEntries(
        Object.keys(FOLDER).map((path) => [`folder ${path}`, { via: 'bitswap', cid: contents.folder.cid, path }]),
      ),
      // what is never served is waited for 3 s: long enough for a loopback peer to answer 20 blocks
      // each after a public block on the same connection (`control`), so the failure is the refusal
      'private root': { via: 'bitswap-block', cid: privateRoot, control: contents.big.v1.cid, timeoutMs: 3_000 },
      'private leaf': { via: 'bitswap-block', cid: privateLeaf, control: contents.big.v1.cid, timeoutMs: 3_000 },
      'routed big v1': { via: 'verified-fetch', cid: contents.big.v1.cid },
      'routed folder path': { via: 'verified-fetch', cid: contents.folder.cid, path: 'sub/mid.bin' },
      'routed private': { via: 'verified-fetch', cid: privateRoot, timeoutMs: 3_000 },
    }
    const tcp = ipfs.addrs.find((addr) => !addr.includes('/ws/'))!
    const out = await fetchOverIpfs(tcp, server.url, Object.values(items), 8_000)
    Object.keys(items).forEach((name, i) => {
      results.set(name, out.results[i]!)
    })
    refused = out.refused
  }, 180_000)

  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM')
      await exited(server.child)
    }
    await dhtPeer?.close()
    await closeStorage?.()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const result = (name: string) => {
    const found = results.get(name)
    if (!found) throw new Error(`no client result for ${name}`)
    return found
  }

  it('start-up - the log names the peer id and its TCP and WebSocket addresses; /healthz says the same', async () => {
    expect(ipfs.peer_id).toMatch(/^12D3KooW/)
    expect(ipfs.addrs).toEqual([
      expect.stringMatching(new RegExp(`^/ip4/127\\.0\\.0\\.1/tcp/\\d+/p2p/${ipfs.peer_id}$`)),
      expect.stringMatching(new RegExp(`^/ip4/127\\.0\\.0\\.1/tcp/\\d+/ws/p2p/${ipfs.peer_id}$`)),
    ])
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { ipfs: typeof ipfs }
    expect(health.ipfs).toMatchObject({ peer_id: ipfs.peer_id, addrs: ipfs.addrs, dht: { mode: 'server' } })
  })

  it('peer key - created in the data directory, owner-only', async () => {
    const key = await stat(join(dataDir, 'ipfs-peer-key'))
    expect(key.mode & 0o777).toBe(0o600)
  })

  it('bitswap - a 5 MiB file (20 leaves), CIDv1, verified block by block', () => {
    expect(result('big v1')).toEqual(contents.big.v1.digest)
  })

  it('bitswap - the same file under CIDv0 (dag-pb leaves)', () => {
    expect(result('big v0')).toEqual(contents.big.v0.digest)
  })

  for (const path of Object.keys(FOLDER) as (keyof typeof FOLDER)[]) {
    it(`bitswap - ${path} by its path inside a folder`, () => {
      expect(result(`folder ${path}`)).toEqual(contents.folder.files[path])
    })
  }

  it("bitswap - a private file's root and leaves are never sent (the want fails or times out)", () => {
    for (const name of ['private root', 'private leaf']) {
      // the want itself failed (a control block that did not come would be a broken connection)
      expect(result(name), name).toEqual({
        error: expect.stringMatching(/^(?!control block not received)[\s\S]*(LoadBlockFailed|abort|timeout)/i),
      })
    }
  })

  it('verified-fetch - with Pinfold as its only router, finds and fetches public content', () => {
    expect(result('routed big v1')).toEqual({ status: 200, ...contents.big.v1.digest })
    expect(result('routed folder path')).toEqual({ status: 200, ...contents.folder.files['sub/mid.bin'] })
  })

  it('verified-fetch - private content is not found through the router', () => {
    const routed = result('routed private')
    expect('sha256' in routed).toBe(false)
    expect(JSON.stringify(routed)).not.toContain(sha256Hex(PRIVATE))
  })

  it('routing API - lists the node and the gateway for public content, nothing for private', async () => {
    const res = await fetch(`${server.url}/routing/v1/providers/${contents.big.v1.cid}`)
    expect(res.status).toBe(200)
    const { Providers } = (await res.json()) as { Providers: { ID: string; Addrs: string[]; Protocols: string[] }[] }
    expect(Providers.map((p) => p.Protocols)).toEqual([['transport-bitswap'], ['transport-ipfs-gateway-http']])
    expect(Providers[0]!.ID).toBe(ipfs.peer_id)
    expect(Providers[0]!.Addrs).toEqual(ipfs.addrs.map((addr) => addr.replace(`/p2p/${ipfs.peer_id}`, '')))
    for (const cid of [privateRoot, privateLeaf]) {
      expect((await fetch(`${server.url}/routing/v1/providers/${cid}`)).status, cid).toBe(404)
    }
  })

  it('dht - public roots are announced: the other DHT peer finds the server as their provider; private ones never', async () => {
    // wait for a reprovide run that started after the uploads (runs every second here)
    const runs = async () =>
      ((await (await fetch(`${server.url}/healthz`)).json()) as { ipfs: { dht: { reprovide_runs: number } } }).ipfs.dht
        .reprovide_runs
    const target = (await runs()) + 2
    const deadline = Date.now() + 20_000
    while ((await runs()) < target && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
    for (const cid of [contents.big.v1.cid, contents.big.v0.cid, contents.folder.cid]) {
      expect(await dhtPeer.providersOf(cid), cid).toEqual([ipfs.peer_id])
    }
    expect(await dhtPeer.providersOf(privateRoot)).toEqual([])
  })

  it('clients - no request left for anything but the server under test', () => {
    expect(refused).toEqual([])
  })
})
