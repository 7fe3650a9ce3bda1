import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { computeFileCid } from '@pinfold/core'
import { PinataSDK } from 'pinata'
import { Upload } from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './support/server.js'

const b64 = (text: string, encoding: BufferEncoding = 'utf8') => Buffer.from(text, encoding).toString('base64')
const cidOf = async (bytes: Uint8Array, version: 'v0' | 'v1' = 'v1') =>
  (
    await computeFileCid(
      (async function* () {
        yield bytes
      })(),
      version,
    )
  ).toString()

interface FileItem {
  id: string
  cid: string
  name: string
  size: number
  mime_type: string
  keyvalues: Record<string, string>
}

describe('resumable uploads (tus 1.0)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  /** A creation request shaped exactly as the official SDK sends it: no Tus-Resumable, no body. */
  async function createSdkStyle(length: number, metadata: string, query = '', base = server.url, token?: string) {
    const headers: Record<string, string> = {
      'Upload-Length': String(length),
      'Upload-Metadata': metadata,
      Source: 'sdk/file',
      Authorization: `Bearer ${token ?? (await server.token())}`,
    }
    return fetch(`${base}/v3/files${query}`, { method: 'POST', headers })
  }

  const patchAt = (location: string, offset: number, bytes: Uint8Array) =>
    fetch(location, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(offset) },
      body: bytes,
    })

  async function findByCid(cid: string, network = 'public'): Promise<FileItem> {
    const res = await server.api(`/v3/files/${network}?cid=${cid}`)
    return ((await res.json()) as { data: { files: FileItem[] } }).data.files[0]!
  }

  it('names - a blank filename completes under the default name; a blank name option is refused before any byte', async () => {
    const bytes = randomBytes(1000)
    const created = await createSdkStyle(bytes.length, `filename ${b64(' ')},network ${b64('public')}`)
    expect(created.status).toBe(201)
    const done = await patchAt(created.headers.get('location')!, 0, bytes)
    expect(done.status).toBe(204)
    expect((await findByCid(await cidOf(bytes))).name).toBe('file')
    const refused = await createSdkStyle(10, `filename ${b64('a.txt')},name ${b64('  ')},network ${b64('public')}`)
    expect(refused.status).toBe(400)
  })

  it('SDK shape - creation, chunked PATCHes, a retried chunk, and a final 204 with upload-cid', async () => {
    const bytes = randomBytes(600_000)
    const metadata = [
      `filename ${b64('café.bin', 'latin1')}`, // the SDK's btoa sends Latin-1, not UTF-8
      `filetype ${b64('application/octet-stream')}`,
      `network ${b64('public')}`,
      `keyvalues ${b64(JSON.stringify({ env: 'prod' }))}`,
      `cid_version ${b64('v0')}`,
    ].join(',')
    const created = await createSdkStyle(bytes.length, metadata, '?X-Upload-Option-Cid-Version=v0')
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!
    expect(location).toMatch(new RegExp(`^${server.url}/v3/files/[0-9a-f-]{36}/[A-Za-z0-9_-]+$`))

    const first = await patchAt(location, 0, bytes.subarray(0, 250_001))
    expect(first.status).toBe(204)
    expect(first.headers.get('upload-offset')).toBe('250001')
    // the SDK retries a chunk at the same offset when it saw no answer: acknowledged, not stored twice
    const retried = await patchAt(location, 0, bytes.subarray(0, 250_001))
    expect(retried.status).toBe(204)
    expect(retried.headers.get('upload-offset')).toBe('250001')
    const stale = await patchAt(location, 0, bytes.subarray(0, 10))
    expect(stale.status).toBe(409)

    const last = await patchAt(location, 250_001, bytes.subarray(250_001))
    expect(last.status).toBe(204)
    const cid = last.headers.get('upload-cid')
    expect(cid).toBe(await cidOf(bytes, 'v0'))
    const file = await findByCid(cid!)
    expect(file).toMatchObject({ name: 'café.bin', size: bytes.length, keyvalues: { env: 'prod' } })
  })

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
    const file = await findByCid(await cidOf(bytes))
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
    expect((await findByCid(await cidOf(bytes))).size).toBe(900_000)
  })

  it('PATCH - a connection dropped mid-body keeps nothing of that PATCH; the offset stays put', async () => {
    const bytes = randomBytes(300_000)
    const created = await createSdkStyle(bytes.length, `filename ${b64('dropped.bin')},network ${b64('public')}`)
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
    const whole = await patchAt(location, 0, bytes)
    expect(whole.status).toBe(204)
    expect(whole.headers.get('upload-cid')).toBe(await cidOf(bytes))
  })

  it('PATCH - of two concurrent PATCHes at one offset exactly one is accepted and stored', async () => {
    const created = await createSdkStyle(200_000, `filename ${b64('race.bin')},network ${b64('public')}`)
    const location = created.headers.get('location')!
    const before = server.blobCount()
    // different lengths, so the loser cannot pass for a retry of the winner's chunk
    const sizes = [100_000, 60_000]
    const results = await Promise.all(sizes.map((size) => patchAt(location, 0, randomBytes(size))))
    expect(results.map((r) => r.status).sort()).toEqual([204, 409])
    const winner = sizes[results.findIndex((r) => r.status === 204)]!
    const head = await fetch(location, { method: 'HEAD' })
    expect(head.headers.get('upload-offset')).toBe(String(winner))
    expect(server.blobCount()).toBe(before + 1)
  })

  // Embedded storage: its I/O lets requests interleave with a completion (in memory a completion runs in one go).
  it('PATCH - empty PATCHes racing the completing one at the final offset record each upload exactly once', {
    timeout: 90_000,
  }, async () => {
    const embedded = await startTestServer({ PINFOLD_STORAGE: 'embedded' })
    try {
      const run = `complete-once-${randomBytes(4).toString('hex')}`
      const uploads = 3
      const racers = 4
      const answers = await Promise.all(
        Array.from({ length: uploads }, async (_, i) => {
          const bytes = randomBytes(1_000_000)
          const name = `${run}-${i}`
          const metadata = `filename ${b64(name)},network ${b64('public')}`
          const created = await createSdkStyle(bytes.length, metadata, '', embedded.url)
          const location = created.headers.get('location')!
          expect((await patchAt(location, 0, bytes.subarray(0, 1))).status).toBe(204)
          // each racer keeps sending empty PATCHes at the final offset until the session is gone
          const race = async () => {
            const statuses: number[] = []
            for (let tries = 0; tries < 500 && statuses.at(-1) !== 404; tries++) {
              const res = await patchAt(location, bytes.length, new Uint8Array(0))
              statuses.push(res.status)
              if (res.status === 204) expect(res.headers.get('upload-offset')).toBe(String(bytes.length))
              expect(res.headers.get('upload-cid')).toBeNull()
            }
            return statuses
          }
          const [completing, ...raced] = await Promise.all([
            patchAt(location, 1, bytes.subarray(1)),
            ...Array.from({ length: racers }, race),
          ])
          expect(completing!.status).toBe(204)
          expect(completing!.headers.get('upload-cid')).toBe(await cidOf(bytes))
          return raced.flat()
        }),
      )
      // 409 before the completing PATCH advanced the offset, 204 while it completes, 404 once it is done
      expect(answers.flat()).toContain(204) // the race was run: some racer came while the upload completed
      expect(new Set(answers.flat())).toSatisfy((seen: Set<number>) =>
        [...seen].every((s) => [204, 404, 409].includes(s)),
      )
      const res = await embedded.api(`/v3/files/public?name=${run}&limit=100`)
      const { files } = ((await res.json()) as { data: { files: FileItem[] } }).data
      expect(files.map((f) => f.name).sort()).toEqual(Array.from({ length: uploads }, (_, i) => `${run}-${i}`))
    } finally {
      await embedded.close()
    }
  })

  it('PATCH - bytes beyond Upload-Length are refused with 413', async () => {
    const created = await createSdkStyle(10, `filename ${b64('small.bin')}`)
    const res = await patchAt(created.headers.get('location')!, 0, new Uint8Array(11))
    expect(res.status).toBe(413)
  })

  it('DELETE - terminates the upload and removes its parts; HEAD is then 404', async () => {
    const before = server.blobCount()
    const created = await createSdkStyle(100, `filename ${b64('gone.bin')}`)
    const location = created.headers.get('location')!
    await patchAt(location, 0, new Uint8Array(40))
    expect(server.blobCount()).toBe(before + 1)
    const del = await fetch(location, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0' } })
    expect(del.status).toBe(204)
    expect(server.blobCount()).toBe(before)
    expect((await fetch(location, { method: 'HEAD' })).status).toBe(404)
  })

  it('session URL - a wrong token is 404 and creation needs a bearer token', async () => {
    const created = await createSdkStyle(100, `filename ${b64('x.bin')}`)
    const location = created.headers.get('location')!
    const wrong = `${location.slice(0, location.lastIndexOf('/'))}/AAAA${location.slice(location.lastIndexOf('/') + 5)}`
    expect((await fetch(wrong, { method: 'HEAD' })).status).toBe(404)
    expect((await patchAt(wrong, 0, new Uint8Array(1))).status).toBe(404)
    const anonymous = await fetch(`${server.url}/v3/files`, { method: 'POST', headers: { 'Upload-Length': '5' } })
    expect(anonymous.status).toBe(401)
  })

  it('signed URL - tus creation through a signed URL needs no token and keeps its constraints', async () => {
    const sign = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ expires: 600, max_file_size: 1000, filename: 'signed-tus.bin', network: 'public' }),
    })
    const signed = ((await sign.json()) as { data: string }).data
    const tooBig = await fetch(signed, { method: 'POST', headers: { 'Upload-Length': '1001' } })
    expect(tooBig.status).toBe(413)
    const url = new URL(signed)
    url.searchParams.set('X-Upload-Option-Cid-Version', 'v1')
    const created = await fetch(url, {
      method: 'POST',
      headers: { 'Upload-Length': '500', 'Upload-Metadata': `filename ${b64('client.bin')}`, Authorization: 'Bearer' },
    })
    expect(created.status).toBe(201)
    const bytes = randomBytes(500)
    const done = await patchAt(created.headers.get('location')!, 0, bytes)
    expect(done.status).toBe(204)
    const file = await findByCid(done.headers.get('upload-cid')!)
    expect(file.name).toBe('signed-tus.bin')
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
