/**
 * @helia/remote-pinning, the Helia project's Pinning Service API client, against a real server's
 * `/psa`: a Helia node on 127.0.0.1 holds content nobody else has; remote-pinning pins it (sending
 * the node's addresses as `origins`), waits for `pinned`, checks, reads, lists and removes it. The
 * server fetches the blocks over bitswap from those origins, so `pinned` means the bytes arrived.
 * Both run under Node 22 (the server's libp2p node, Helia).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TEST_SECRET, testTokens } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChildServer, exited, startChildServer } from '../support/child-server.js'
import { node22, pinWithHeliaRemote, type RemotePinningResult } from './run-clients.js'

describe('interop - @helia/remote-pinning against /psa', () => {
  let server: ChildServer
  let dataDir: string
  let result: RemotePinningResult
  let token: string
  let files: { cid: string; name: string }[]

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-remote-pinning-'))
    server = await startChildServer(
      {
        HOST: '127.0.0.1',
        PINFOLD_STORAGE: 'memory',
        PINFOLD_DATA_DIR: dataDir,
        PINFOLD_AUTH_SECRET: TEST_SECRET,
        PINFOLD_IPFS_LISTEN: '/ip4/127.0.0.1/tcp/0',
        // the Helia node is on 127.0.0.1: a deployment on the internet would not dial it
        PINFOLD_IPFS_PRIVATE_ADDRESSES: 'true',
        PINFOLD_PIN_POLL_MS: '100',
        PINFOLD_PIN_TIMEOUT_MS: '15000',
        NODE_OPTIONS: '',
      },
      { node: node22() },
    )
    token = await testTokens()()
    result = await pinWithHeliaRemote(`${server.url}/psa`, token)
    const res = await fetch(`${server.url}/v3/files/public?limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    })
    files = ((await res.json()) as { data: { files: { cid: string; name: string }[] } }).data.files
  }, 90_000)
  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM')
      await exited(server.child)
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('runs without an error and reaches nothing but the server', () => {
    expect(result.error).toBeUndefined()
    expect(result.refused).toEqual([])
  })

  it('pins.add - resolves once the server says pinned: it fetched the blocks from the origins over bitswap', () => {
    expect(result.pinned).toEqual([result.cid])
    expect(result.addrs!.some((addr) => addr.startsWith('/ip4/127.0.0.1/tcp/'))).toBe(true)
  })

  it('isPinned, get and ls - see the pin with its name and meta', () => {
    expect(result.isPinned).toBe(true)
    expect(result.got).toEqual({ cid: result.cid, status: 'pinned', metadata: { app: 'helia' } })
    expect(result.listed).toContainEqual({
      cid: result.cid,
      name: 'from-helia.txt',
      status: 'pinned',
      metadata: { app: 'helia' },
    })
  })

  it('the server serves the pinned bytes as the Helia node held them', () => {
    expect(result.gateway).toEqual({ status: 200, ...result.digest })
  })

  it("delegates - the server's IPFS node, by the addresses it listens on, each with its peer id", async () => {
    const ipfs = server.listening.ipfs as { peer_id: string; addrs: string[] }
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const res = await fetch(`${server.url}/psa/pins`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ cid: result.cid }),
    })
    expect(res.status).toBe(202)
    const { requestid, delegates } = (await res.json()) as { requestid: string; delegates: string[] }
    expect(delegates.length).toBeGreaterThan(0)
    expect(delegates).toEqual(
      ipfs.addrs.map((addr) => (addr.endsWith(`/p2p/${ipfs.peer_id}`) ? addr : `${addr}/p2p/${ipfs.peer_id}`)),
    )
    expect((await fetch(`${server.url}/psa/pins/${requestid}`, { method: 'DELETE', headers })).status).toBe(202)
  })

  it('pins.rm - removes the pin, and with it the file: nothing is left', () => {
    expect(result.afterRm).toBe(false)
    expect(files.filter((file) => file.cid === result.cid)).toEqual([])
  })
})
