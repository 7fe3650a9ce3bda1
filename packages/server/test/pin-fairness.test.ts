import type { AddressInfo } from 'node:net'
import { createServer, type Socket } from 'node:net'
import { form } from '@pinfold/testing/test-api'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './support/server.js'
import { waitFor } from './support/wait-for.js'

/**
 * Pin by CID when a source accepts connections and never answers (issue 29): a tenant queuing
 * requests only such a source is asked for must not hold every worker, and each job must give
 * the source up within its budgets (`PINFOLD_PIN_BLOCK_TIMEOUT_MS` per source per block,
 * `PINFOLD_PIN_TIMEOUT_MS` per job), ending Pinata's `expired`. Real servers, a real socket.
 */

/** A TCP server that takes every connection and never sends a byte. */
async function startSilentGateway() {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Connections open right now. */
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** Distinct CIDs nothing holds (raw sha2-256 of "missing {i}"). */
async function missingCids(count: number): Promise<string[]> {
  const { CID } = await import('multiformats/cid')
  const { sha256 } = await import('multiformats/hashes/sha2')
  return Promise.all(
    Array.from({ length: count }, async (_, i) =>
      CID.createV1(0x55, await sha256.digest(new TextEncoder().encode(`missing ${i}`))).toString(),
    ),
  )
}

interface Job {
  id: string
  name: string
  status: string
  reason: string | null
}

describe('pin by CID against a source that never answers', { timeout: 120_000 }, () => {
  let silent: Awaited<ReturnType<typeof startSilentGateway>>
  let server: TestServer | undefined
  beforeAll(async () => {
    silent = await startSilentGateway()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  afterAll(async () => {
    await silent?.close()
  })

  const pin = async (target: TestServer, auth: string, cid: string, name: string) => {
    const res = await target.api('/v3/files/public/pin_by_cid', {
      method: 'POST',
      body: JSON.stringify({ cid, name }),
      auth,
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: Job }).data.id
  }
  const jobs = async (target: TestServer, auth: string) => {
    const res = await target.api('/v3/files/public/pin_by_cid?limit=100', { auth })
    return ((await res.json()) as { data: { jobs: Job[] } }).data.jobs
  }

  it("one tenant's stuck requests do not hold every worker: another tenant's pin completes while they wait", async () => {
    // two workers and a block budget far beyond the test: the stuck jobs stay stuck
    server = await startTestServer({
      PINFOLD_IPFS_GATEWAYS: silent.url,
      PINFOLD_PIN_POLL_MS: '50',
      PINFOLD_PIN_JOBS: '2',
      PINFOLD_PIN_BLOCK_TIMEOUT_MS: '600000',
    })
    const greedy = await server.token({ org: 'greedy' })
    const patient = await server.token({ org: 'patient' })
    for (const [i, cid] of (await missingCids(6)).entries()) await pin(server, greedy, cid, `stuck ${i}`)
    await waitFor('a stuck job to ask the silent gateway', async () => (silent.open() > 0 ? true : undefined))

    // a 64-byte block this server already serves
    const upload = await server.api('/v3/files', {
      method: 'POST',
      body: form({ network: 'public' }, { bytes: new Uint8Array(64).fill(7), name: 'tiny.bin' }),
      auth: patient,
    })
    const { cid } = ((await upload.json()) as { data: { cid: string } }).data
    const id = await pin(server, patient, cid, 'tiny copy')
    await waitFor('the other tenant’s pin', async () => {
      const res = await server!.api(`/v3/files/public/${id}`, { auth: patient })
      return res.status === 200 ? true : undefined
    })
    // the greedy tenant's requests are all still waiting, one of them running
    const stuck = await jobs(server, greedy)
    expect(stuck).toHaveLength(6)
    expect(stuck.filter((job) => job.status === 'retrieving')).toHaveLength(1)
    expect(stuck.filter((job) => job.status === 'prechecking')).toHaveLength(5)
  })

  it('a block the only source never answers ends the job expired after the per-block budget, and the worker goes on', async () => {
    server = await startTestServer({
      PINFOLD_IPFS_GATEWAYS: silent.url,
      PINFOLD_PIN_POLL_MS: '50',
      PINFOLD_PIN_JOBS: '1',
      PINFOLD_PIN_BLOCK_TIMEOUT_MS: '300',
    })
    const token = await server.token({ org: 'block-budget' })
    const [first, second] = await missingCids(2)
    const ids = [await pin(server, token, first!, 'first'), await pin(server, token, second!, 'second')]
    // one worker: the second request runs only once the first let its worker go
    const ended = await waitFor('both jobs to end', async () => {
      const all = await jobs(server!, token)
      return all.every((job) => job.status === 'expired') ? all : undefined
    })
    expect(ended.map((job) => job.id)).toEqual(ids)
    for (const job of ended)
      expect(job.reason).toMatch(/^block \w+ was not found \(gateway 127\.0\.0\.1:\d+: no answer within 300 ms\)$/)
  })

  it('a job past the per-job budget ends expired, whatever the per-block budget', async () => {
    server = await startTestServer({
      PINFOLD_IPFS_GATEWAYS: silent.url,
      PINFOLD_PIN_POLL_MS: '50',
      PINFOLD_PIN_TIMEOUT_MS: '400',
      PINFOLD_PIN_BLOCK_TIMEOUT_MS: '600000',
    })
    const token = await server.token({ org: 'job-budget' })
    const [cid] = await missingCids(1)
    const id = await pin(server, token, cid!, 'slow')
    const [job] = await waitFor('the job to end', async () => {
      const all = await jobs(server!, token)
      return all[0]?.status === 'expired' ? all : undefined
    })
    expect(job).toMatchObject({ id, status: 'expired', reason: 'not done within 400 ms' })
  })

  it('a silent gateway listed first is given up on each block: the next gateway serves the DAG', async () => {
    const origin = await startTestServer()
    try {
      const bytes = new Uint8Array(600_000).map((_, i) => (i * 13) % 251) // three blocks and a root
      const upload = await origin.api('/v3/files', {
        method: 'POST',
        body: form({ network: 'public' }, { bytes, name: 'held.bin' }),
      })
      const { cid } = ((await upload.json()) as { data: { cid: string } }).data
      // The budget is each source's, the origin's too: it must outlast a loaded CI machine's
      // answer from the origin (a 300 ms budget expired the job there), while the silent source
      // still costs only four budgets in all.
      server = await startTestServer({
        PINFOLD_IPFS_GATEWAYS: `${silent.url},${origin.url}`,
        PINFOLD_PIN_POLL_MS: '50',
        PINFOLD_PIN_BLOCK_TIMEOUT_MS: '3000',
      })
      const token = await server.token({ org: 'two-sources' })
      const id = await pin(server, token, cid, 'held elsewhere')
      await waitFor('the pin', async () => {
        const res = await server!.api(`/v3/files/public/${id}`, { auth: token })
        if (res.status === 200) return true
        const [job] = await jobs(server!, token)
        // an ended job will never become a file: say why instead of waiting out the deadline
        expect(job?.status, `the pin job ended: ${job?.reason}`).not.toBe('expired')
        return undefined
      })
      const served = await fetch(`${server.url}/ipfs/${cid}`)
      expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
    } finally {
      await origin.close()
    }
  })
})
