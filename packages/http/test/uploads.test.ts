import { createHash } from 'node:crypto'
import { chacha } from '@pinfold/testing/gateway'
import { form, startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { VECTORS, vectorBytes } from '@pinfold/testing/uploads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const fileVectors = VECTORS.filter((v) => v.kind === 'file')

describe('POST /v3/files', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  it('vectors - the shared notes hold the single-file vectors this suite relies on', () => {
    expect(fileVectors.length).toBeGreaterThanOrEqual(15)
  })

  for (const vector of fileVectors) {
    const profile = vector.options.startsWith('unixfs-v1-2025') ? 'unixfs-v1-2025' : 'kubo'
    it(`upload - gives Kubo's CIDs for ${vector.name}`, async () => {
      const bytes = vectorBytes(vector)
      if (vector.sha256) expect(createHash('sha256').update(bytes).digest('hex')).toBe(vector.sha256)
      if (profile === 'unixfs-v1-2025') {
        const res = await upload(server, { bytes }, { network: 'public', cid_version: 'unixfs-v1-2025' })
        expect(res.body.data.cid).toBe(vector.cidv1)
        return
      }
      const v1 = await upload(server, { bytes }, { network: 'public' })
      expect(v1.status).toBe(200)
      expect(v1.body.data.cid).toBe(vector.cidv1)
      expect(v1.body.data.size).toBe(bytes.length)
      const v0 = await upload(server, { bytes }, { network: 'public', cid_version: 'v0' })
      expect(v0.body.data.cid).toBe(vector.cidv0)
    })
  }

  it('upload - answers with the spec upload record and the fields the SDK reads', async () => {
    const res = await upload(
      server,
      { bytes: 'record fields', name: 'notes.txt', type: 'text/plain' },
      { name: 'My notes', keyvalues: JSON.stringify({ env: 'prod', n: 3 }) },
    )
    expect(res.status).toBe(200)
    const record = res.body.data
    expect(Object.keys(record).sort()).toEqual(
      [
        'cid',
        'created_at',
        'expires_at',
        'group_id',
        'id',
        'is_duplicate',
        'keyvalues',
        'mime_type',
        'name',
        'network',
        'number_of_files',
        'size',
        'user_id',
        'vectorized',
      ].sort(),
    )
    expect(record).toMatchObject({
      name: 'My notes',
      size: 13,
      number_of_files: 1,
      mime_type: 'text/plain',
      user_id: 'alice',
      group_id: null,
      keyvalues: { env: 'prod', n: '3' },
      network: 'private',
      is_duplicate: false,
      vectorized: false,
    })
    expect(record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Date(record.created_at as string).toISOString()).toBe(record.created_at)
  })

  it('upload - is_duplicate is true only when this tenant holds the CID on that network', async () => {
    const bytes = `dup-${Math.random()}`
    expect((await upload(server, { bytes }, { network: 'public' })).body.data.is_duplicate).toBe(false)
    expect((await upload(server, { bytes }, { network: 'public' })).body.data.is_duplicate).toBe(true)
    expect((await upload(server, { bytes }, { network: 'private' })).body.data.is_duplicate).toBe(false)
    const other = await server.token({ org: 'globex' })
    expect((await upload(server, { bytes }, { network: 'public' }, other)).body.data.is_duplicate).toBe(false)
  })

  it('upload - identical bytes are stored once', async () => {
    const before = server.blobCount()
    const bytes = `stored-once-${Math.random()}`
    await Promise.all(Array.from({ length: 5 }, () => upload(server, { bytes }, { network: 'public' })))
    expect(server.blobCount()).toBe(before + 1)
  })

  it('upload - sniffs the type of octet-stream parts from their bytes', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
    const image = await upload(server, { bytes: png, name: 'x', type: 'application/octet-stream' })
    expect(image.body.data.mime_type).toBe('image/png')
    const text = await upload(server, {
      bytes: 'plain words\n',
      name: 'base64 string',
      type: 'application/octet-stream',
    })
    expect(text.body.data.mime_type).toBe('text/plain')
    const binary = await upload(server, { bytes: Uint8Array.from([0, 1, 2, 3, 255]), name: 'blob' })
    expect(binary.body.data.mime_type).toBe('application/octet-stream')
    const json = await upload(server, { bytes: '{"a":1}', name: 'data.json', type: 'application/json' })
    expect(json.body.data.mime_type).toBe('application/json')
  })

  it('upload - accepts options before the file part as well as after it', async () => {
    const body = new FormData()
    body.append('network', 'public')
    body.append('name', 'first')
    body.append('file', new Blob(['options first']), 'a.txt')
    const res = await server.api('/v3/files', { method: 'POST', body })
    expect(((await res.json()) as { data: { network: string; name: string } }).data).toMatchObject({
      network: 'public',
      name: 'first',
    })
  })

  it('upload - expires_at in the future is kept, in the past is refused', async () => {
    const later = Math.floor(Date.now() / 1000) + 3600
    const ok = await upload(server, { bytes: 'expiring' }, { expires_at: String(later) })
    expect(ok.body.data.expires_at).toBe(later)
    const past = await upload(server, { bytes: 'expired' }, { expires_at: '1000' })
    expect(past.status).toBe(400)
  })

  const badRequests: [string, Record<string, string>, string][] = [
    ['an unknown network', { network: 'intranet' }, 'network'],
    ['keyvalues that are not JSON', { keyvalues: '{nope' }, 'keyvalues'],
    ['keyvalues that are not an object', { keyvalues: '[1,2]' }, 'keyvalues'],
    ['an unknown cid_version', { cid_version: 'v7' }, 'cid_version'],
    ['a malformed expires_at', { expires_at: 'tomorrow' }, 'expires_at'],
    ['car=true (not supported yet)', { car: 'true' }, 'CAR'],
  ]
  for (const [what, fields, mention] of badRequests) {
    it(`upload - refuses ${what} with 400 and stores nothing`, async () => {
      const before = server.blobCount()
      const res = await upload(server, { bytes: `bad-${what}` }, fields)
      expect(res.status).toBe(400)
      expect(res.body.error).toContain(mention)
      expect(server.blobCount()).toBe(before)
    })
  }

  it('upload - a group of another tenant is not found and nothing is stored', async () => {
    const other = await server.token({ org: 'globex' })
    const group = await server.api('/v3/groups/private', { method: 'POST', body: '{"name":"g"}', auth: other })
    const { data } = (await group.json()) as { data: { id: string } }
    const before = server.blobCount()
    const res = await upload(server, { bytes: 'into a foreign group' }, { group_id: data.id })
    expect(res.status).toBe(404)
    expect(server.blobCount()).toBe(before)
  })

  it('upload - a request without a file part is refused', async () => {
    const res = await server.api('/v3/files', { method: 'POST', body: form({ network: 'public' }) })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: 'file is required' })
  })

  it('upload - a body that is not multipart is refused', async () => {
    const res = await server.api('/v3/files', {
      method: 'POST',
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toMatch(/multipart/)
  })

  it('upload - a truncated multipart body is refused and stores nothing', async () => {
    const before = server.blobCount()
    const boundary = 'XyZ'
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\npartial bytes with no closing boundary`
    const res = await server.api('/v3/files', {
      method: 'POST',
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    })
    expect(res.status).toBe(400)
    expect(server.blobCount()).toBe(before)
  })

  it('upload - a refused form whose unread file part is cut off does not crash the server', async () => {
    // the bad field ends the upload before the file part is read; the cut-off body then fails that
    // file stream, which nobody reads any more
    const boundary = 'XyZ'
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="network"\r\n\r\nnowhere\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\npartial bytes`,
    ].join('')
    const res = await server.api('/v3/files', {
      method: 'POST',
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    })
    expect(res.status, await res.text()).toBe(400)
    expect((await server.api('/v3/groups/public')).status).toBe(200)
  })
})

describe('POST /v3/files with a size limit', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi({ maxUploadBytes: 100_000 })
  })
  afterAll(() => server.close())

  it('upload - a file over the limit gets 413 and nothing is stored', async () => {
    const res = await upload(server, { bytes: new Uint8Array(300_000).fill(7) })
    expect(res.status).toBe(413)
    expect(res.body.error).toContain('100000')
    expect(server.blobCount()).toBe(0)
    const ok = await upload(server, { bytes: new Uint8Array(100_000).fill(7) })
    expect(ok.status).toBe(200)
  })
})

describe('POST /v3/files with leaves hashed on the thread pool', () => {
  let pooled: TestApi
  let mainThread: TestApi
  beforeAll(async () => {
    const stores = { storage: 'memory', embedder: null, maxUploadBytes: 4_000_000 } as const
    pooled = await startTestApi({ ...stores, uploadHashing: 'thread-pool' })
    mainThread = await startTestApi({ ...stores, uploadHashing: 'main-thread' })
  })
  afterAll(() => Promise.all([pooled.close(), mainThread.close()]))

  it("upload - a file of 13 leaves, the last one short, gets the main thread's CID and is stored whole", async () => {
    const bytes = chacha('pooled-upload', 12 * 262_144 + 12_345)
    const fromPool = await upload(pooled, { bytes }, { network: 'public' })
    const fromMain = await upload(mainThread, { bytes }, { network: 'public' })
    expect(fromPool.status).toBe(200)
    expect(fromPool.body.data.cid).toBe(fromMain.body.data.cid)
    expect(fromPool.body.data.size).toBe(bytes.length)
    const stored = await pooled.fetch(`${pooled.url}/ipfs/${fromPool.body.data.cid}`)
    expect(Buffer.from(await stored.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
  })

  it('upload - a file over the limit gets 413 and nothing is stored', async () => {
    const before = pooled.blobCount()
    const res = await upload(pooled, { bytes: chacha('pooled-too-large', 4_000_001) })
    expect(res.status).toBe(413)
    expect(pooled.blobCount()).toBe(before)
  })
})

describe('persistence on the configured storage', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  it('upload - 20 concurrent identical uploads store one blob and exactly one is not a duplicate', async () => {
    const before = server.blobCount()
    const bytes = `twenty-${Math.random()}`
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await server.api('/v3/files', { method: 'POST', body: form({ network: 'public' }, { bytes }) })
        return ((await res.json()) as { data: { cid: string; is_duplicate: boolean } }).data
      }),
    )
    expect(new Set(answers.map((a) => a.cid)).size).toBe(1)
    expect(answers.filter((a) => !a.is_duplicate)).toHaveLength(1)
    expect(server.blobCount()).toBe(before + 1)
  })
})
