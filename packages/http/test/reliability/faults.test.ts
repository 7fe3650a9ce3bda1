import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, request as httpRequest, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFsBlobStore } from '@pinfold/adapter-fs'
import { createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createOpenAIEmbedder } from '@pinfold/embedders'
import { createExtractionPool } from '@pinfold/text-extract'
import { createOfflineVerifier } from '@pinfold/x402'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { extractionBombs } from '../support/extraction-bombs.js'
import {
  countFiles,
  eventually,
  type FaultPlan,
  type FaultServer,
  faultyBlobs,
  faultyRecords,
  faultyVerifier,
  openFilesUnder,
  startFaultServer,
} from '../support/faults.js'
import { type PaidServer, priceCid, randomAccount, signedHeader } from '../support/payments.js'
import { actorOf, figures, printFigures } from '../support/reliability.js'
import { form } from '../support/server.js'

/**
 * Injected failures in each port, over a real HTTP server with a filesystem blob store: the client
 * gets 503 (or the right 4xx), no record is left without its bytes, no bytes without a record
 * (or the orphan sweep removes them), and the process keeps serving the next request.
 */

const plan: FaultPlan = {}
let dir: string
let server: FaultServer
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
  dir = await mkdtemp(join(tmpdir(), 'pinfold-faults-'))
  embeddings = await startEmbeddings()
  server = await startFaultServer({
    records: faultyRecords(createMemoryRecordStore(), plan),
    blobs: faultyBlobs(createFsBlobStore({ directory: dir }), plan),
    embedder: createOpenAIEmbedder({
      baseUrl: embeddings.url,
      model: 'fake',
      dimensions: 4,
      timeoutMs: 300,
      maxRetries: 0,
    }),
    textExtractor: extraction.extract,
    payments: faultyVerifier(createOfflineVerifier(), plan),
  })
})
afterAll(async () => {
  printFigures('faults')
  await server?.close()
  await embeddings?.close()
  await extraction.close()
  await rm(dir, { recursive: true, force: true })
})
beforeEach(() => {
  for (const key of Object.keys(plan)) delete plan[key as keyof FaultPlan]
})

const blobs = () => countFiles(join(dir, 'blobs'))
const temps = () => countFiles(join(dir, '.tmp'))
async function fileIds(org = 'acme'): Promise<string[]> {
  const ids: string[] = []
  for (const network of ['public', 'private'] as const) {
    const { files } = await server.service.files.list(actorOf(org), network, { limit: 1000 })
    ids.push(...files.map((f) => f.id))
  }
  return ids.sort()
}
const state = async () => ({ blobs: blobs(), temps: temps(), files: await fileIds() })

async function upload(bytes: Uint8Array | string, fields: Record<string, string> = { network: 'public' }) {
  const res = await server.api('/v3/files', { method: 'POST', body: form(fields, { bytes, name: 'f.txt' }) })
  const body = (await res.json()) as { data: { id: string; cid: string }; error?: string }
  return { status: res.status, body }
}

/** Every acknowledged upload, to check at the end that none was lost. */
const acknowledged: { id: string; cid: string; bytes: Uint8Array | string }[] = []

/** The fault was answered as the contract says and the server serves a normal upload right after. */
async function survived(status: number, expected: number[] = [503]) {
  expect(expected).toContain(status)
  const next = await upload(randomBytes(2048))
  expect(next.status, next.body.error).toBe(200)
  figures.faultsSurvived++
}

describe('faults - blob store', () => {
  it('upload - the blob store failing mid-upload is a 503: no record, no blob, no temp file', async () => {
    const before = await state()
    plan.putFailsAfterBytes = 100_000
    const res = await upload(randomBytes(1024 * 1024))
    expect(await state()).toEqual(before)
    await survived(res.status)
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
      fetch(location, {
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
    const head = await fetch(location, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } })
    expect(head.headers.get('upload-offset')).toBe('0')
    delete plan.putFailsAfterBytes
    const done = await patch(0, bytes)
    expect(done.status).toBe(204)
    const cid = done.headers.get('upload-cid')!
    acknowledged.push({ id: done.headers.get('upload-file-id')!, cid, bytes })
    await survived(failed.status)
  })

  it('tus PATCH - a completion failing at the record is a 503; its claim is released and a retry records it once', async () => {
    const before = await fileIds()
    const bytes = randomBytes(100_000)
    const created = await server.api('/v3/files', {
      method: 'POST',
      headers: { 'upload-length': String(bytes.length), 'upload-metadata': `network ${btoa('public')}` },
    })
    const location = created.headers.get('location')!
    const patch = (offset: number, chunk: Uint8Array) =>
      fetch(location, {
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
    expect(await fileIds()).toEqual([...before, id].sort())
    await survived(failed.status)
  })

  it('download - a blob read failing mid-stream cuts that response only; the server keeps serving', async () => {
    const bytes = randomBytes(1024 * 1024)
    const { body } = await upload(bytes)
    acknowledged.push({ ...body.data, bytes })
    plan.getFailsAfterBytes = 200_000
    // (the deadline only tells "cut at once" from "left hanging until the keep-alive timeout")
    const broken = await fetch(`${server.url}/ipfs/${body.data.cid}`, { signal: AbortSignal.timeout(2500) })
    const got = await broken.arrayBuffer().then(
      (b) => b.byteLength,
      (err: Error) => (err.name === 'TimeoutError' ? 'left hanging' : -1),
    )
    // the failure hits after the headers went out: the client must see an error, never a short
    // body that looks complete (the connection is cut rather than the body ended)
    expect(broken.status).toBe(200)
    expect(got).toBe(-1)
    delete plan.getFailsAfterBytes
    const whole = await fetch(`${server.url}/ipfs/${body.data.cid}`)
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true)
    await survived(broken.status, [200, 503])
  })

  it('delete - a blob delete failing after the record is gone leaves an orphan the sweep removes', async () => {
    const before = await state()
    const { body } = await upload(randomBytes(4096))
    plan.deleteFails = true
    const res = await server.api(`/v3/files/public/${body.data.id}`, { method: 'DELETE' })
    expect([200, 503]).toContain(res.status)
    delete plan.deleteFails
    if (res.status === 503) {
      // the delete was refused as a whole: retrying it completes it
      expect((await server.api(`/v3/files/public/${body.data.id}`, { method: 'DELETE' })).status).toBe(200)
    }
    expect(await fileIds()).toEqual(before.files)
    await server.service.maintenance.sweepOrphanBlobs({ olderThanMs: 0 })
    expect(blobs()).toBe(before.blobs)
    await survived(res.status, [200, 503])
  })
})

describe('faults - record store', () => {
  it('upload - the record store failing at commit is a 503 and the stored bytes are removed', async () => {
    const before = await state()
    plan.records = new Set(['createFile'])
    const res = await upload(randomBytes(200_000))
    expect(res.body).toEqual({ error: expect.stringMatching(/injected/) })
    expect(await state()).toEqual(before)
    plan.records = undefined
    await survived(res.status)
  })

  it('delete - the record store failing is a 503 and the file stays, bytes and all', async () => {
    const bytes = randomBytes(4096)
    const { body } = await upload(bytes)
    acknowledged.push({ ...body.data, bytes })
    plan.records = new Set(['deleteFile'])
    const res = await server.api(`/v3/files/public/${body.data.id}`, { method: 'DELETE' })
    plan.records = undefined
    const read = await fetch(`${server.url}/ipfs/${body.data.cid}`)
    expect(Buffer.from(await read.arrayBuffer()).equals(bytes)).toBe(true)
    await survived(res.status)
  })

  it('database down - every route answers 503 (never 500) and recovers when it is back', async () => {
    const { body } = await upload('kept through the outage')
    acknowledged.push({ ...body.data, bytes: 'kept through the outage' })
    plan.records = new Set(Object.keys(createMemoryRecordStore()).filter((name) => typeof name === 'string'))
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
    await survived(503)
  })
})

describe('faults - embedder and payment verifier', () => {
  it('vectorize - an embedder past its timeout is a 503, nothing is marked vectorized; it works once back', async () => {
    const group = await server.api('/v3/groups/private', { method: 'POST', body: JSON.stringify({ name: 'docs' }) })
    const groupId = ((await group.json()) as { data: { id: string } }).data.id
    const { body } = await upload('a text about rivers and boats', { network: 'private', group_id: groupId })
    acknowledged.push({ ...body.data, bytes: 'a text about rivers and boats' })
    embeddings.hang = true
    const res = await server.api(`/v3/vectorize/files/${body.data.id}`, { method: 'POST' })
    figures.faultsInjected++
    expect(res.status, await res.clone().text()).toBe(503)
    const file = await server.api(`/v3/files/private/${body.data.id}`)
    expect(((await file.json()) as { data: { vectorized: boolean } }).data.vectorized).toBe(false)
    embeddings.hang = false
    expect((await server.api(`/v3/vectorize/files/${body.data.id}`, { method: 'POST' })).status).toBe(200)
    await survived(res.status)
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
    await survived(res.status, [413])
  })

  it('retrieve - the payment verifier being down is a 503 with no link; the same payment works after', async () => {
    const { body } = await upload('paid bytes', { network: 'private' })
    acknowledged.push({ ...body.data, bytes: 'paid bytes' })
    await priceCid(server as unknown as PaidServer, body.data.cid)
    const path = `/v1/retrieve/private/${body.data.cid}`
    const { name, value } = await signedHeader({ account: randomAccount(), resource: `${server.url}${path}` })
    plan.verifierDown = true
    const res = await fetch(`${server.url}${path}`, { headers: { [name]: value } })
    const text = await res.text()
    expect(res.status, text).toBe(503)
    expect(text).not.toMatch(/url/)
    plan.verifierDown = false
    expect((await fetch(`${server.url}${path}`, { headers: { [name]: value } })).status).toBe(200)
    await survived(res.status)
  })
})

describe('faults - client aborts', () => {
  it('upload - a client that disconnects mid-upload leaks no temp file, file handle, blob or record', async () => {
    const before = await state()
    const { port } = new URL(server.url)
    const boundary = 'abortboundary'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`
    const token = await server.token()
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: Number(port),
        method: 'POST',
        path: '/v3/files',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + 50 * 1024 * 1024),
        },
      })
      req.on('error', () => resolve())
      req.write(head)
      let sent = 0
      const pump = () => {
        while (sent < 3 * 1024 * 1024) {
          sent += 64 * 1024
          if (!req.write(randomBytes(64 * 1024))) return void req.once('drain', pump)
        }
        // the server is now writing a temp file: disconnect in the middle of it
        setTimeout(() => {
          req.destroy()
          resolve()
        }, 100)
      }
      pump()
    })
    figures.faultsInjected++
    expect(await eventually(() => temps() === 0 && openFilesUnder(dir) === 0)).toBe(true)
    expect(await state()).toEqual(before)
    await survived(503)
  })
})

describe('faults - audit', () => {
  it('after every fault - each acknowledged file is readable with its bytes (none lost)', async () => {
    expect(acknowledged.length).toBeGreaterThan(4)
    for (const file of acknowledged) {
      // through a signed download link, which serves either network
      const link = await server.api('/v3/files/private/download_link', {
        method: 'POST',
        body: JSON.stringify({ url: `https://x/files/${file.cid}`, expires: 60 }),
      })
      const url = ((await link.json()) as { data?: string }).data
      const bytes = url
        ? Buffer.from(await (await fetch(url.replace(/^https?:\/\/[^/]+/, server.url))).arrayBuffer())
        : undefined
      const intact = bytes?.equals(Buffer.from(file.bytes)) ?? false
      if (!intact) figures.filesLost++
      expect(intact, file.cid).toBe(true)
    }
  })
})
