import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mintToken, SCOPES } from '@pinfold/core'
import { chacha } from '@pinfold/testing/gateway'
import { form, TEST_SECRET } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exited, startChildServer } from './support/child-server.js'
import { startTestServer, type TestServer } from './support/server.js'
import { waitFor } from './support/wait-for.js'

/**
 * Pin by CID: the queue survives a kill -9 of the process running a job; the next process takes the
 * job over once its lease runs out, and completes it once.
 */

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

interface Held {
  cid: string
}

async function uploadPublic(server: TestServer, body: FormData): Promise<Held> {
  const res = await server.api('/v3/files', { method: 'POST', body })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: Held }).data
}

const FIVE_MIB = chacha('pin-by-cid 5 MiB', 5 * 1024 * 1024)
/**
 * A trustless gateway in front of `origin` that lets `allowed` block requests through and holds
 * every later one until `release()`: a job is caught mid-DAG for as long as the test wants.
 */
async function startValve(origin: string, allowed: number) {
  let passed = 0
  let open = false
  const held: { url: string; res: ServerResponse }[] = []
  const forward = async (url: string, res: ServerResponse) => {
    const upstream = await fetch(`${origin}${url}`, { headers: { accept: 'application/vnd.ipld.raw' } })
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' })
    res.end(Buffer.from(await upstream.arrayBuffer()))
  }
  const server = createServer((req, res) => {
    if (open || passed < allowed) {
      passed++
      forward(req.url ?? '/', res).catch(() => res.destroy())
    } else held.push({ url: req.url ?? '/', res })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Requests let through so far, and requests being held. */
    counts: () => ({ passed, held: held.length }),
    release() {
      open = true
      // whoever asked is gone (killed): drop the held sockets
      for (const { res } of held.splice(0)) res.destroy()
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('pin by CID - the queue survives kill -9', { timeout: 240_000 }, () => {
  let origin: TestServer
  let dataDir: string
  let held: Held
  beforeAll(async () => {
    origin = await startTestServer({}, { storage: 'memory' })
    held = await uploadPublic(origin, form({ network: 'public' }, { bytes: FIVE_MIB, name: 'five.bin' }))
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-pin-crash-'))
  })
  afterAll(async () => {
    await origin?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('a job cut by kill -9 mid-DAG is taken over after restart and completes once, with identical bytes', async () => {
    const valve = await startValve(origin.url, 4)
    const env = {
      PINFOLD_STORAGE: 'embedded',
      PINFOLD_DATA_DIR: dataDir,
      PINFOLD_AUTH_SECRET: TEST_SECRET,
      PINFOLD_IPFS_GATEWAYS: valve.url,
      PINFOLD_PIN_POLL_MS: '100',
      PINFOLD_PIN_LEASE_MS: '2000',
    }
    const token = await mintToken(TEST_SECRET, { sub: 'crash', scopes: SCOPES, expiresIn: '1h' })
    const headers = { authorization: `Bearer ${token}` }
    try {
      const doomed = await startChildServer(env)
      const res = await fetch(`${doomed.url}/v3/files/public/pin_by_cid`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ cid: held.cid, name: 'survivor.bin' }),
      })
      const { id } = ((await res.json()) as { data: { id: string } }).data
      // some blocks fetched, the rest hanging: the job is mid-DAG
      await waitFor('the job to be mid-DAG', async () => (valve.counts().held > 0 ? true : undefined))
      expect(valve.counts().passed).toBe(4)
      doomed.child.kill('SIGKILL')
      await exited(doomed.child)
      valve.release()

      const next = await startChildServer(env)
      try {
        const queued = await fetch(`${next.url}/v3/files/public/pin_by_cid?cid=${held.cid}`, { headers })
        expect(((await queued.json()) as { data: { jobs: { id: string }[] } }).data.jobs.map((j) => j.id)).toEqual([id])
        await waitFor('the job to complete', async () => {
          const file = await fetch(`${next.url}/v3/files/public/${id}`, { headers })
          return file.status === 200 ? file : undefined
        })
        const files = await fetch(`${next.url}/v3/files/public?limit=100`, { headers })
        const listed = ((await files.json()) as { data: { files: { id: string; name: string }[] } }).data.files
        expect(listed.map((f) => [f.id, f.name])).toEqual([[id, 'survivor.bin']])
        const served = await fetch(`${next.url}/ipfs/${held.cid}`)
        expect(sha(new Uint8Array(await served.arrayBuffer()))).toBe(sha(FIVE_MIB))
      } finally {
        next.child.kill('SIGTERM')
        await exited(next.child)
      }
    } finally {
      await valve.close()
    }
  })
})
