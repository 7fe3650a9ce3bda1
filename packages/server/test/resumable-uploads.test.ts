import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freshSchema, startS3rver } from '@pinfold/testing/storage'
import { TEST_SECRET, testTokens } from '@pinfold/testing/test-api'
import { b64, cidOf, createSdkStyle, findByCid, patchAt } from '@pinfold/testing/tus'
import { PinataSDK } from 'pinata'
import { Upload } from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, readConfig, startServer } from '../src/index.js'
import { openStorage } from '../src/storage.js'
import { startTestServer, type TestServer } from './support/server.js'

// The tus protocol itself is tested in process (packages/http/test/resumable-uploads.test.ts);
// here, real clients over a real server, a socket cut mid-PATCH, and a restart.
describe('resumable uploads (tus 1.0) over a real server', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('SDK - pinata.upload.public.file takes the tus path above 90 MiB and gets the record back', async () => {
    const size = 94_371_841
    const bytes = randomBytes(size)
    const pinata = new PinataSDK({
      pinataJwt: await server.token(),
      endpointUrl: `${server.url}/v3`,
      uploadUrl: `${server.url}/v3`,
    })
    const result = await pinata.upload.public.file(new File([bytes], 'big.bin', { type: 'application/octet-stream' }))
    expect(result.cid).toBe(await cidOf(bytes))
    expect(result).toMatchObject({ name: 'big.bin', size })
  }, 120_000)

  it('tus-js-client - uploads in chunks and the CID matches a local import', async () => {
    const bytes = randomBytes(1_000_000)
    const token = await server.token()
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new Upload(bytes, {
        endpoint: `${server.url}/v3/files`,
        chunkSize: 256 * 1024,
        headers: { Authorization: `Bearer ${token}` },
        metadata: { filename: 'ünïcode.bin', filetype: 'application/octet-stream', network: 'public' },
        retryDelays: [],
        onError: reject,
        onSuccess: () => resolve(upload.url!),
      })
      upload.start()
    })
    expect(url).toContain('/v3/files/')
    const file = await findByCid(server, await cidOf(bytes))
    expect(file).toMatchObject({ name: 'ünïcode.bin', size: bytes.length })
  })

  it('tus-js-client - resumes an interrupted upload from the offset HEAD reports', async () => {
    const bytes = randomBytes(900_000)
    const token = await server.token()
    const common = {
      chunkSize: 200_000,
      headers: { Authorization: `Bearer ${token}` },
      metadata: { filename: 'resumed.bin', network: 'public' },
      retryDelays: [],
    }
    let uploadUrl = ''
    await new Promise<void>((resolve, reject) => {
      const upload = new Upload(bytes, {
        ...common,
        endpoint: `${server.url}/v3/files`,
        onError: reject,
        onChunkComplete: (_chunk, accepted) => {
          if (accepted >= 400_000) {
            uploadUrl = upload.url!
            void upload.abort().then(resolve, reject)
          }
        },
      })
      upload.start()
    })
    const head = await fetch(uploadUrl, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('upload-offset'))).toBe(400_000)
    expect(head.headers.get('upload-length')).toBe('900000')
    await new Promise<void>((resolve, reject) => {
      const upload = new Upload(bytes, { ...common, uploadUrl, onError: reject, onSuccess: () => resolve() })
      upload.start()
    })
    expect((await findByCid(server, await cidOf(bytes))).size).toBe(900_000)
  })

  it('PATCH - a connection dropped mid-body keeps nothing of that PATCH; the offset stays put', async () => {
    const bytes = randomBytes(300_000)
    const created = await createSdkStyle(
      server,
      bytes.length,
      `filename ${b64('dropped.bin')},network ${b64('public')}`,
    )
    const location = created.headers.get('location')!
    const before = server.blobCount()
    await new Promise<void>((resolve) => {
      const req = request(location, {
        method: 'PATCH',
        headers: {
          'content-type': 'application/offset+octet-stream',
          'upload-offset': '0',
          'content-length': String(bytes.length),
        },
      })
      req.on('error', () => resolve())
      req.write(bytes.subarray(0, 100_000), () => setTimeout(() => req.destroy(), 100))
    })
    // wait until the server has seen the drop and cleaned up
    for (let i = 0; i < 50 && server.blobCount() !== before; i++) await new Promise((r) => setTimeout(r, 20))
    expect(server.blobCount()).toBe(before)
    const head = await fetch(location, { method: 'HEAD' })
    expect(head.headers.get('upload-offset')).toBe('0')
    const whole = await patchAt(server, location, 0, bytes)
    expect(whole.status).toBe(204)
    expect(whole.headers.get('upload-cid')).toBe(await cidOf(bytes))
  })
})

describe('resumable uploads across a server restart (embedded storage)', () => {
  it('restart - an upload begun before a restart completes after it', async () => {
    const server = await startTestServer({ PINFOLD_STORAGE: 'embedded' })
    try {
      const bytes = randomBytes(500_000)
      const created = await fetch(`${server.url}/v3/files`, {
        method: 'POST',
        headers: {
          'Upload-Length': String(bytes.length),
          'Upload-Metadata': `filename ${b64('restart.bin')},network ${b64('public')}`,
          Authorization: `Bearer ${await server.token()}`,
        },
      })
      const path = new URL(created.headers.get('location')!).pathname
      const patch = (offset: number, chunk: Uint8Array) =>
        fetch(`${server.url}${path}`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(offset) },
          body: chunk,
        })
      expect((await patch(0, bytes.subarray(0, 200_000))).status).toBe(204)
      await server.restart()
      const head = await fetch(`${server.url}${path}`, { method: 'HEAD' })
      expect(head.headers.get('upload-offset')).toBe('200000')
      const last = await patch(200_000, bytes.subarray(200_000))
      expect(last.status).toBe(204)
      expect(last.headers.get('upload-cid')).toBe(await cidOf(bytes))
    } finally {
      await server.close()
    }
  })
})

// Instances behind a balancer share the database and the bucket, and nothing else: the S3 multipart
// upload a session's PATCHes go into, its recorded parts and leaf digests, and the carry blob are
// all there is, so any instance takes the next PATCH.
describe.skipIf(!process.env.TEST_DATABASE_URL)('resumable uploads across instances (PostgreSQL + S3)', () => {
  it('instances - PATCHes alternate between two servers on one database and one bucket; the last completes it', {
    timeout: 120_000,
  }, async () => {
    const database = await freshSchema(process.env.TEST_DATABASE_URL!)
    const s3 = await startS3rver()
    const started: { running: RunningServer; close(): Promise<void> }[] = []
    try {
      for (let i = 0; i < 2; i++) {
        const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-instance-'))
        const config = readConfig({
          PORT: '0',
          PINFOLD_STORAGE: 'embedded',
          DATABASE_URL: database,
          ...s3.env,
          PINFOLD_DATA_DIR: dataDir,
          PINFOLD_AUTH_SECRET: TEST_SECRET,
        })
        const stores = await openStorage(config)
        const running = await startServer(config, { stores })
        started.push({
          running,
          close: async () => {
            await running.close()
            await stores.close()
            await rm(dataDir, { recursive: true, force: true })
          },
        })
      }
      const [one, two] = started.map((s) => s.running.url)
      const token = await testTokens()()
      // 5 MiB parts on S3: a first PATCH shorter than that waits in a carry, the next ones go in whole
      const bytes = randomBytes(12 * 1024 * 1024 + 12_345)
      const created = await fetch(`${one}/v3/files`, {
        method: 'POST',
        headers: {
          'Upload-Length': String(bytes.length),
          'Upload-Metadata': `filename ${b64('instances.bin')},network ${b64('public')}`,
          Authorization: `Bearer ${token}`,
        },
      })
      const path = new URL(created.headers.get('location')!).pathname
      const cuts = [0, 3_000_000, 9_000_000, bytes.length]
      let last: Response | undefined
      for (let i = 0; i + 1 < cuts.length; i++) {
        last = await fetch(`${i % 2 === 0 ? two : one}${path}`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(cuts[i]) },
          body: bytes.subarray(cuts[i], cuts[i + 1]),
        })
        expect(last.status).toBe(204)
        expect(last.headers.get('upload-offset')).toBe(String(cuts[i + 1]))
      }
      expect(last!.headers.get('upload-cid')).toBe(await cidOf(bytes))
      const download = await fetch(`${one}/ipfs/${last!.headers.get('upload-cid')}`)
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true)
    } finally {
      for (const server of started) await server.close()
      await s3.close()
    }
  })
})
