import { randomBytes } from 'node:crypto'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createOpenAIEmbedder } from '@pinfold/embedders'
import { type FaultPlan, type FaultSuite, startFaultSuite } from '@pinfold/testing/faults'
import { priceCid, randomAccount, signedHeader } from '@pinfold/testing/payments'
import { figures, printFigures } from '@pinfold/testing/reliability'
import { form, type TestApi } from '@pinfold/testing/test-api'
import { createExtractionPool } from '@pinfold/text-extract'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { extractionBombs } from '../support/extraction-bombs.js'

/**
 * Injected failures in each port, through the API in process with a filesystem blob store: the client
 * gets 503 (or the right 4xx), no record is left without its bytes, no bytes without a record
 * (or the orphan sweep removes them), and the process keeps serving the next request. Faults the
 * node bridge answers (a blob read failing mid-download, a client cutting its upload) are tested
 * over a real server in packages/server/test/reliability/bridge-faults.test.ts.
 */

const plan: FaultPlan = {}
let suite: FaultSuite
let server: TestApi
let embeddings: { url: string; hang: boolean; close(): Promise<void> }

/** An OpenAI-compatible endpoint that hangs while `hang` is set, else answers at once. */
async function startEmbeddings() {
  const hanging: ServerResponse[] = []
  const state = {
    url: '',
    hang: false,
    close: async () => {
      for (const res of hanging) res.destroy()
      await new Promise<void>((resolve) => {
        http.close(() => resolve())
        http.closeAllConnections()
      })
    },
  }
  const http = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString()
    })
    req.on('end', () => {
      if (state.hang) return void hanging.push(res)
      const input = (JSON.parse(raw) as { input: string[] }).input
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: [1, 2, 3, 4] })) }))
    })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`
  return state
}

// text is extracted on a worker thread, as the server does
const extraction = createExtractionPool({ threads: 1 })

beforeAll(async () => {
  embeddings = await startEmbeddings()
  suite = await startFaultSuite(plan, {
    embedder: createOpenAIEmbedder({
      baseUrl: embeddings.url,
      model: 'fake',
      dimensions: 4,
      timeoutMs: 300,
      maxRetries: 0,
    }),
    textExtractor: extraction.extract,
  })
  server = suite.server
})
afterAll(async () => {
  printFigures('faults')
  await suite?.close()
  await embeddings?.close()
  await extraction.close()
})
beforeEach(() => {
  for (const key of Object.keys(plan)) delete plan[key as keyof FaultPlan]
})

/** Every acknowledged upload, to check at the end that none was lost. */
const acknowledged: { id: string; cid: string; bytes: Uint8Array | string }[] = []

describe('faults - blob store', () => {
  it('upload - the blob store failing mid-upload is a 503: no record, no blob, no temp file', async () => {
    const before = await suite.state()
    plan.putFailsAfterBytes = 100_000
    const res = await suite.upload(randomBytes(1024 * 1024))
    expect(await suite.state()).toEqual(before)
    await suite.survived(res.status)
  })

  it('tus PATCH - the blob store failing mid-chunk is a 503; the offset stays and the upload resumes', async () => {
    const bytes = randomBytes(300_000)
    const created = await server.api('/v3/files', {
      method: 'POST',
      headers: { 'upload-length': String(bytes.length), 'tus-resumable': '1.0.0' },
    })
    const location = created.headers.get('location')!
    plan.putFailsAfterBytes = 50_000
    const patch = (offset: number, chunk: Uint8Array) =>
      server.fetch(location, {
        method: 'PATCH',
        headers: {
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          'tus-resumable': '1.0.0',
        },
        body: chunk,
      })
    const failed = await patch(0, bytes)
    expect(failed.status).toBe(503)
    const head = await server.fetch(location, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } })
    expect(head.headers.get('upload-offset')).toBe('0')
    delete plan.putFailsAfterBytes
    const done = await patch(0, bytes)
    expect(done.status).toBe(204)
    const cid = done.headers.get('upload-cid')!
    acknowledged.push({ id: done.headers.get('upload-file-id')!, cid, bytes })
    await suite.survived(failed.status)
  })

  it('tus PATCH - a completion failing at the record is a 503; its claim is released and a retry records it once', async () => {
    const before = await suite.fileIds()
    const bytes = randomBytes(100_000)
    const created = await server.api('/v3/files', {
      method: 'POST',
      headers: { 'upload-length': String(bytes.length), 'upload-metadata': `network ${btoa('public')}` },
    })
    const location = created.headers.get('location')!
    const patch = (offset: number, chunk: Uint8Array) =>
      server.fetch(location, {
        method: 'PATCH',
        headers: { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: chunk,
      })
    plan.records = new Set(['createFile'])
    const failed = await patch(0, bytes)
    expect(failed.status).toBe(503)
    delete plan.records
    const retried = await patch(bytes.length, new Uint8Array(0))
    expect(retried.status).toBe(204)
    const id = retried.headers.get('upload-file-id')!
    acknowledged.push({ id, cid: retried.headers.get('upload-cid')!, bytes })
    expect((await patch(bytes.length, new Uint8Array(0))).status).toBe(404)
    expect(await suite.fileIds()).toEqual([...before, id].sort())
    await suite.survived(failed.status)
  })

  it('delete - a blob delete failing after the record is gone leaves an orphan the sweep removes', async () => {
    const before = await suite.state()
    const { body } = await suite.upload(randomBytes(4096))
    plan.deleteFails = true
    const res = await server.api(`/v3/files/public/${body.data.id}`, { method: 'DELETE' })
    expect([200, 503]).toContain(res.status)
    delete plan.deleteFails
    if (res.status === 503) {
      // the delete was refused as a whole: retrying it completes it
      expect((await server.api(`/v3/files/public/${body.data.id}`, { method: 'DELETE' })).status).toBe(200)
    }
    expect(await suite.fileIds()).toEqual(before.files)
    await server.service.maintenance.sweepOrphanBlobs({ olderThanMs: 0 })
    expect(suite.blobs()).toBe(before.blobs)
    await suite.survived(res.status, [200, 503])
  })
})

describe('faults - record store', () => {
  it('upload - the record store failing at commit is a 503 and the stored bytes are removed', async () => {
    const before = await suite.state()
    plan.records = new Set(['createFile'])
    const res = await suite.upload(randomBytes(200_000))
    expect(res.body).toEqual({ error: expect.stringMatching(/injected/) })
    expect(await suite.state()).toEqual(before)
    plan.records = undefined
    await suite.survived(res.status)
  })

  it('delete - the record store failing is a 503 and the file stays, bytes and all', async () => {
    const bytes = randomBytes(4096)
    const { body } = await suite.upload(bytes)
    acknowledged.push({ ...body.data, bytes })
    plan.records = new Set(['deleteFile'])
    const res = await server.api(`/v3/files/public/${body.data.id}`, { method: 'DELETE' })
    plan.records = undefined
    const read = await server.fetch(`${server.url}/ipfs/${body.data.cid}`)
    expect(Buffer.from(await read.arrayBuffer()).equals(bytes)).toBe(true)
    await suite.survived(res.status)
  })

  it('database down - every route answers 503 (never 500) and recovers when it is back', async () => {
    const { body } = await suite.upload('kept through the outage')
    acknowledged.push({ ...body.data, bytes: 'kept through the outage' })
    plan.records = new Set(Object.values(createMemoryRecordStore()).flatMap((part) => Object.keys(part)))
    const calls: [string, RequestInit][] = [
      ['/v3/files/public', {}],
      [`/v3/files/public/${body.data.id}`, {}],
      ['/v3/groups/public', { method: 'POST', body: JSON.stringify({ name: 'g' }) }],
      ['/v3/files', { method: 'POST', body: form({ network: 'public' }, { bytes: 'x', name: 'x' }) }],
      [`/ipfs/${body.data.cid}`, {}],
      ['/v3/x402/payment_instructions', {}],
    ]
    for (const [path, init] of calls) {
      const res = await server.api(path, init)
      expect(res.status, path).toBe(503)
      expect(Object.keys((await res.json()) as object)).toEqual(['error'])
    }
    plan.records = undefined
    await suite.survived(503)
  })
})

describe('faults - embedder and payment verifier', () => {
  it('vectorize - an embedder past its timeout is a 503, nothing is marked vectorized; it works once back', async () => {
    const group = await server.api('/v3/groups/private', { method: 'POST', body: JSON.stringify({ name: 'docs' }) })
    const groupId = ((await group.json()) as { data: { id: string } }).data.id
    const { body } = await suite.upload('a text about rivers and boats', { network: 'private', group_id: groupId })
    acknowledged.push({ ...body.data, bytes: 'a text about rivers and boats' })
    embeddings.hang = true
    const res = await server.api(`/v3/vectorize/files/${body.data.id}`, { method: 'POST' })
    figures.faultsInjected++
    expect(res.status, await res.clone().text()).toBe(503)
    const file = await server.api(`/v3/files/private/${body.data.id}`)
    expect(((await file.json()) as { data: { vectorized: boolean } }).data.vectorized).toBe(false)
    embeddings.hang = false
    expect((await server.api(`/v3/vectorize/files/${body.data.id}`, { method: 'POST' })).status).toBe(200)
    await suite.survived(res.status)
  })

  it('vectorize - an extraction bomb (a PDF inflating to 64 MiB) is a 413, nothing is marked vectorized', async () => {
    const group = await server.api('/v3/groups/private', { method: 'POST', body: JSON.stringify({ name: 'bombs' }) })
    const groupId = ((await group.json()) as { data: { id: string } }).data.id
    const bytes = extractionBombs.inflatingPdf(64)
    const file = { bytes, name: 'bomb.pdf', type: 'application/pdf' }
    const uploaded = await server.api('/v3/files', {
      method: 'POST',
      body: form({ network: 'private', group_id: groupId }, file),
    })
    const { data } = (await uploaded.json()) as { data: { id: string; cid: string } }
    acknowledged.push({ ...data, bytes })
    const res = await server.api(`/v3/vectorize/files/${data.id}`, { method: 'POST' })
    figures.faultsInjected++
    expect(res.status, await res.clone().text()).toBe(413)
    const record = await server.api(`/v3/files/private/${data.id}`)
    expect(((await record.json()) as { data: { vectorized: boolean } }).data.vectorized).toBe(false)
    await suite.survived(res.status, [413])
  })

  it('retrieve - the payment verifier being down is a 503 with no link; the same payment works after', async () => {
    const { body } = await suite.upload('paid bytes', { network: 'private' })
    acknowledged.push({ ...body.data, bytes: 'paid bytes' })
    await priceCid(server, body.data.cid)
    const path = `/v1/retrieve/private/${body.data.cid}`
    const { name, value } = await signedHeader({ account: randomAccount(), resource: `${server.url}${path}` })
    plan.verifierDown = true
    const res = await server.fetch(`${server.url}${path}`, { headers: { [name]: value } })
    const text = await res.text()
    expect(res.status, text).toBe(503)
    expect(text).not.toMatch(/url/)
    plan.verifierDown = false
    expect((await server.fetch(`${server.url}${path}`, { headers: { [name]: value } })).status).toBe(200)
    await suite.survived(res.status)
  })
})

describe('faults - audit', () => {
  it('after every fault - each acknowledged file is readable with its bytes (none lost)', async () => {
    expect(acknowledged.length).toBeGreaterThan(4)
    for (const file of acknowledged) {
      // through a signed download link, which serves either network
      const link = await server.api('/v3/files/private/download_link', {
        method: 'POST',
        body: JSON.stringify({ url: `/files/${file.cid}`, expires: 60 }),
      })
      const url = ((await link.json()) as { data?: string }).data
      const bytes = url
        ? Buffer.from(await (await server.fetch(url.replace(/^https?:\/\/[^/]+/, server.url))).arrayBuffer())
        : undefined
      const intact = bytes?.equals(Buffer.from(file.bytes)) ?? false
      if (!intact) figures.filesLost++
      expect(intact, file.cid).toBe(true)
    }
  })
})
