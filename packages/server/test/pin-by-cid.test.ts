import { createHash } from 'node:crypto'
import { chacha } from '@pinfold/testing/gateway'
import { form } from '@pinfold/testing/test-api'
import { folderForm } from '@pinfold/testing/uploads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './support/server.js'
import { waitFor } from './support/wait-for.js'

/**
 * Pin by CID between real servers: a second Pinfold fetches, through `PINFOLD_IPFS_GATEWAYS`, a
 * CID only the first one holds, from the first one's trustless gateway (through Helia's block
 * broker), with its own worker loop, and then serves the same bytes. (The queue surviving a kill -9
 * of the process running a job: pin-by-cid-crash.test.ts.)
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
const FOLDER = [
  { path: 'site/index.html', bytes: '<h1>pinned</h1>' },
  { path: 'site/assets/photo.bin', bytes: chacha('pin-by-cid photo', 700_000) },
]

describe('pin by CID between two servers (PINFOLD_IPFS_GATEWAYS)', { timeout: 180_000 }, () => {
  let first: TestServer
  let second: TestServer
  let file: Held
  let folder: Held

  beforeAll(async () => {
    first = await startTestServer()
    file = await uploadPublic(first, form({ network: 'public' }, { bytes: FIVE_MIB, name: 'five.bin' }))
    folder = await uploadPublic(first, folderForm(FOLDER, { network: 'public' }))
    second = await startTestServer({ PINFOLD_IPFS_GATEWAYS: first.url, PINFOLD_PIN_POLL_MS: '100' })
  })
  afterAll(async () => {
    await second?.close()
    await first?.close()
  })

  it('the second server pins a 5 MiB file and a folder only the first holds, and serves identical bytes', async () => {
    for (const { cid } of [file, folder]) expect((await fetch(`${second.url}/ipfs/${cid}`)).status).toBe(404)
    const requests: string[] = []
    for (const { cid } of [file, folder]) {
      const res = await second.api('/v3/files/public/pin_by_cid', { method: 'POST', body: JSON.stringify({ cid }) })
      expect(res.status).toBe(200)
      requests.push(((await res.json()) as { data: { id: string } }).data.id)
    }
    // the worker loop of the second server runs them
    for (const id of requests) {
      await waitFor(`file ${id}`, async () => {
        const res = await second.api(`/v3/files/public/${id}`)
        return res.status === 200 ? res : undefined
      })
    }
    // the file is made just before its request is finished: the queue empties a moment later
    await waitFor('an empty queue', async () => {
      const queue = await second.api('/v3/files/public/pin_by_cid')
      return ((await queue.json()) as { data: { jobs: unknown[] } }).data.jobs.length === 0 ? true : undefined
    })

    const served = await fetch(`${second.url}/ipfs/${file.cid}`)
    expect(served.status).toBe(200)
    expect(sha(new Uint8Array(await served.arrayBuffer()))).toBe(sha(FIVE_MIB))
    for (const entry of FOLDER) {
      const path = entry.path.slice('site/'.length)
      const res = await fetch(`${second.url}/ipfs/${folder.cid}/${path}`)
      expect(res.status, path).toBe(200)
      const expected = typeof entry.bytes === 'string' ? new TextEncoder().encode(entry.bytes) : entry.bytes
      expect(sha(new Uint8Array(await res.arrayBuffer())), path).toBe(sha(expected))
    }
    // the same blocks: the CAR of the whole folder is byte for byte the first server's
    const car = async (server: TestServer) =>
      sha(new Uint8Array(await (await fetch(`${server.url}/ipfs/${folder.cid}?format=car`)).arrayBuffer()))
    expect(await car(second)).toBe(await car(first))
  })
})
