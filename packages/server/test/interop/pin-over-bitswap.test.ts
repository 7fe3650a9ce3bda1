/**
 * Pin by CID over bitswap, with real peers on 127.0.0.1: a second Pinfold instance pins a CID that only
 * the first one holds, naming the first one's multiaddr in `host_nodes`, and serves identical bytes;
 * a private CID of the first one ends `not_found`. Both servers run under Node 22 (their libp2p nodes).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiClient, TEST_SECRET, testTokens, upload } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChildServer, exited, startChildServer } from '../support/child-server.js'
import { FOLDER, type InteropContents, sha256Hex, uploadContents } from './contents.js'
import { node22 } from './run-clients.js'

describe('interop - pin by CID from host_nodes over bitswap', () => {
  const dirs: string[] = []
  const servers: ChildServer[] = []
  let source: ChildServer
  let pinner: ChildServer
  let pinnerApi: ReturnType<typeof apiClient>
  let contents: InteropContents
  let privateCid: string
  let host: string

  async function start(extra: Record<string, string>) {
    const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-pin-bitswap-'))
    dirs.push(dataDir)
    const server = await startChildServer(
      {
        HOST: '127.0.0.1',
        PINFOLD_STORAGE: 'memory',
        PINFOLD_DATA_DIR: dataDir,
        PINFOLD_AUTH_SECRET: TEST_SECRET,
        PINFOLD_IPFS_LISTEN: '/ip4/127.0.0.1/tcp/0',
        NODE_OPTIONS: '',
        ...extra,
      },
      { node: node22() },
    )
    servers.push(server)
    return server
  }

  // a built server and Node 22 peers start here: 70–100 s on 2 cores at a load of ~20 (vitest.config.ts gives hooks 60 s)
  beforeAll(async () => {
    source = await start({})
    const token = testTokens()
    const sourceApi = apiClient(fetch, source.url, token, await token())
    contents = await uploadContents({ api: sourceApi })
    privateCid = (
      await upload({ api: sourceApi }, { bytes: 'only the source has this, privately' }, { network: 'private' })
    ).body.data.cid as string
    host = (source.listening.ipfs as { addrs: string[] }).addrs[0]!
    // the host node is on 127.0.0.1: a deployment on the internet would not dial it
    pinner = await start({
      PINFOLD_PIN_POLL_MS: '100',
      PINFOLD_PIN_TIMEOUT_MS: '8000',
      PINFOLD_IPFS_PRIVATE_ADDRESSES: 'true',
    })
    pinnerApi = apiClient(fetch, pinner.url, token, await token())
  }, 180_000)
  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGTERM')
      await exited(server.child)
    }
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  async function pin(cid: string) {
    const res = await pinnerApi('/v3/files/public/pin_by_cid', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cid, host_nodes: [host] }),
    })
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { id: string } }
    // the request leaves the queue once its job ends
    const deadline = Date.now() + 30_000
    for (;;) {
      const queue = (await (await pinnerApi(`/v3/files/public/pin_by_cid?cid=${cid}`)).json()) as {
        data: { jobs: { id: string; status: string }[] }
      }
      const job = queue.data.jobs.find((j) => j.id === data.id)
      if (!job || !['prechecking', 'retrieving'].includes(job.status)) return job
      if (Date.now() > deadline) throw new Error(`pin of ${cid} still ${job.status}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }

  it('a 5 MiB file (CIDv1 and CIDv0) and a folder: pinned from the host node, served with identical bytes', async () => {
    for (const { cid, digest } of [contents.big.v1, contents.big.v0]) {
      expect(await pin(cid), cid).toBeUndefined()
      const served = new Uint8Array(await (await fetch(`${pinner.url}/ipfs/${cid}`)).arrayBuffer())
      expect({ sha256: sha256Hex(served), size: served.byteLength }, cid).toEqual(digest)
    }
    expect(await pin(contents.folder.cid)).toBeUndefined()
    for (const path of Object.keys(FOLDER) as (keyof typeof FOLDER)[]) {
      const served = new Uint8Array(
        await (await fetch(`${pinner.url}/ipfs/${contents.folder.cid}/${path}`)).arrayBuffer(),
      )
      expect({ sha256: sha256Hex(served), size: served.byteLength }, path).toEqual(contents.folder.files[path])
    }
  })

  it('a private CID of the host node is never sent: the job fails and the pinner holds nothing', async () => {
    const job = await pin(privateCid)
    expect(job?.status).toMatch(/expired|failed|not_found|timed_out/)
    expect((await fetch(`${pinner.url}/ipfs/${privateCid}`)).status).toBe(404)
  })
})
