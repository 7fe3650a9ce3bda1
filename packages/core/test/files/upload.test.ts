import { describe, expect, it } from 'vitest'
import { CID_VERSIONS, computeFileCid } from '../../src/index.js'
import {
  alice,
  createTestService,
  fileItem,
  itemsOf,
  mallory,
  patterned,
  START,
  storedNothing,
  streamOf,
  uploadFile,
  utf8,
} from '../support/test-service.js'

/** Kubo's published CIDs of "hello world" (no newline): `ipfs add` and `ipfs add --cid-version=1`. */
const HELLO = {
  v0: 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD',
  v1: 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e',
}

/** A PNG signature and IHDR chunk: enough for the type to be sniffed from the first bytes. */
const PNG_HEAD = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
  0, 0, 0x1f, 0x15, 0xc4, 0x89,
])

describe('uploads', () => {
  it("upload - gives Kubo's published CIDs for v0 and v1", async () => {
    const { service } = createTestService()
    const v1 = await uploadFile(service, alice, 'hello world')
    const v0 = await uploadFile(service, alice, 'hello world', { cidVersion: 'v0' })
    expect(v1.file.cid).toBe(HELLO.v1)
    expect(v0.file.cid).toBe(HELLO.v0)
  })

  it('upload - a multi-chunk file gets the reference importer CID under every profile', async () => {
    const { service } = createTestService()
    const bytes = patterned(1_300_000) // several 256 KiB leaves, two 1 MiB leaves
    for (const version of CID_VERSIONS) {
      const { file } = await uploadFile(service, alice, bytes, { cidVersion: version })
      const expected = await computeFileCid(streamOf(bytes), version)
      expect(file.cid, version).toBe(expected.toString())
      expect(file.size).toBe(bytes.length)
    }
  })

  it('upload - options before the bytes and after them give the same record', async () => {
    const options = { name: 'greeting', network: 'public', keyvalues: { lang: 'en' }, cidVersion: 'v0' } as const
    const { service } = createTestService()
    const before = await service.files.upload(alice, itemsOf({ kind: 'options', options }, fileItem('a.txt', 'hi')))
    const after = await service.files.upload(mallory, itemsOf(fileItem('a.txt', 'hi'), { kind: 'options', options }))
    const shape = ({ id: _i, tenantId: _t, userId: _u, ...rest }: typeof before.file) => rest
    expect(shape(after.file)).toEqual(shape(before.file))
    expect(before.file).toMatchObject({ name: 'greeting', network: 'public', keyvalues: { lang: 'en' } })
    expect(before.file.cid).toMatch(/^Qm/)
  })

  it('upload - later options items override earlier ones field by field', async () => {
    const { service } = createTestService()
    const { file } = await service.files.upload(
      alice,
      itemsOf({ kind: 'options', options: { name: 'first', keyvalues: { a: '1' } } }, fileItem('a.txt', 'hi'), {
        kind: 'options',
        options: { name: 'second' },
      }),
    )
    expect(file).toMatchObject({ name: 'second', keyvalues: { a: '1' } })
  })

  it('upload - defaults to the private network, the file name and a time-stamped record', async () => {
    const { service } = createTestService()
    const { file } = await uploadFile(service, alice, 'hello', {}, { path: 'notes.txt' })
    expect(file).toMatchObject({
      network: 'private',
      name: 'notes.txt',
      tenantId: 'acme',
      userId: 'alice',
      numberOfFiles: 1,
      groupId: null,
      keyvalues: {},
      expiresAt: null,
      createdAt: START,
      size: 5,
    })
    expect(file.mimeType).toMatch(/^text\/plain/)
  })

  it('upload - an octet-stream part is typed from its bytes', async () => {
    const { service } = createTestService()
    const { file } = await uploadFile(
      service,
      alice,
      PNG_HEAD,
      {},
      { path: 'blob', mimeType: 'application/octet-stream' },
    )
    expect(file.mimeType).toBe('image/png')
  })

  it('upload - is_duplicate only when this tenant holds the CID on that network; the bytes are stored once', async () => {
    const test = createTestService()
    const { service } = test
    expect((await uploadFile(service, alice, 'same')).isDuplicate).toBe(false)
    expect((await uploadFile(service, alice, 'same')).isDuplicate).toBe(true)
    expect((await uploadFile(service, alice, 'same', { network: 'public' })).isDuplicate).toBe(false)
    expect((await uploadFile(service, mallory, 'same')).isDuplicate).toBe(false)
    expect(test.blobs.count).toBe(1)
  })

  it('upload - concurrent identical uploads keep one copy of the bytes; exactly one is not a duplicate', async () => {
    const test = createTestService()
    const bytes = patterned(600_000)
    const results = await Promise.all([1, 2, 3].map(() => uploadFile(test.service, alice, bytes)))
    expect(results.filter((result) => !result.isDuplicate)).toHaveLength(1)
    expect(new Set(results.map((result) => result.file.cid)).size).toBe(1)
    // the file's bytes and the sidecar of its DAG's inner nodes; the losers' copies are gone
    expect(test.blobs.count).toBe(2)
  })

  it('delete - the bytes go only when the last record of the CID goes', async () => {
    const test = createTestService()
    const first = await uploadFile(test.service, alice, 'shared')
    const second = await uploadFile(test.service, mallory, 'shared')
    await test.service.files.delete(alice, 'private', first.file.id)
    expect(test.blobs.count).toBe(1)
    await test.service.files.delete(mallory, 'private', second.file.id)
    expect(test.blobs.count).toBe(0)
  })

  it("files - another tenant's file ids are NOT_FOUND for get, update and delete", async () => {
    const { service } = createTestService()
    const { file } = await uploadFile(service, alice, 'mine')
    await expect(service.files.get(mallory, 'private', file.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(service.files.update(mallory, 'private', file.id, { name: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(service.files.delete(mallory, 'private', file.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(service.files.get(alice, 'public', file.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await service.files.get(alice, 'private', file.id)).name).toBe('file.bin')
  })

  it('upload - an expiry in the future is kept, one now or in the past is refused and stores nothing', async () => {
    const test = createTestService()
    await expect(uploadFile(test.service, alice, 'x', { expiresAt: START })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    expect(await storedNothing(test)).toBe(true)
    const later = new Date(START.getTime() + 1000)
    expect((await uploadFile(test.service, alice, 'x', { expiresAt: later })).file.expiresAt).toEqual(later)
  })

  it.each([
    ['an empty name', { name: ' ' }],
    ['a null keyvalue', { keyvalues: { a: null } as never }],
    ['an over-long keyvalue key', { keyvalues: { ['k'.repeat(256)]: 'v' } }],
    // embedders call core without the HTTP layer's parsing: core must refuse these itself
    ['an unknown CID version', { cidVersion: 'v2' as never }],
    ['an unknown network', { network: 'intranet' as never }],
  ])('upload - refuses %s with INVALID_INPUT and stores nothing', async (_what, options) => {
    const test = createTestService()
    await expect(uploadFile(test.service, alice, 'x', options)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await storedNothing(test)).toBe(true)
  })

  it("upload - another tenant's group is NOT_FOUND and stores nothing", async () => {
    const test = createTestService()
    const group = await test.service.groups.create(alice, 'private', { name: 'albums' })
    await expect(uploadFile(test.service, mallory, 'x', { groupId: group.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    expect(await storedNothing(test, mallory)).toBe(true)
  })

  it('upload - no file, or two single files, is INVALID_INPUT and stores nothing', async () => {
    const test = createTestService()
    await expect(test.service.files.upload(alice, itemsOf({ kind: 'options', options: {} }))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await expect(
      test.service.files.upload(alice, itemsOf(fileItem('a.txt', 'a'), fileItem('b.txt', 'b'))),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await storedNothing(test)).toBe(true)
  })

  it("upload - over the service's size limit is PAYLOAD_TOO_LARGE and stores nothing", async () => {
    const test = createTestService({ maxUploadBytes: 100_000 })
    await expect(uploadFile(test.service, alice, patterned(100_001))).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    })
    expect(await storedNothing(test)).toBe(true)
    await uploadFile(test.service, alice, patterned(100_000))
  })

  it("upload - a constraint's smaller size limit wins over the service's", async () => {
    const test = createTestService()
    const constraints = { maxBytes: 10 }
    await expect(uploadFile(test.service, alice, '12345678901', {}, { constraints })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    })
    expect(await storedNothing(test)).toBe(true)
  })

  it('upload - allowed MIME types admit matching files and refuse others, storing nothing', async () => {
    const test = createTestService()
    const constraints = { allowMimeTypes: ['image/*'] }
    await expect(
      uploadFile(test.service, alice, 'plain text', {}, { constraints, path: 'a.txt' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    // bytes declared as a PNG must carry PNG's signature
    await expect(
      uploadFile(test.service, alice, 'not a png', {}, { constraints, path: 'a.png', mimeType: 'image/png' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await storedNothing(test)).toBe(true)
    const { file } = await uploadFile(test.service, alice, PNG_HEAD, {}, { constraints, path: 'a.png' })
    expect(file.mimeType).toBe('image/png')
  })

  it("upload - a constraint's fixed options win over the request's", async () => {
    const { service } = createTestService()
    const constraints = { fixed: { network: 'public', keyvalues: { source: 'signed' } } } as const
    const { file } = await uploadFile(
      service,
      alice,
      'x',
      { network: 'private', keyvalues: { a: 'b' } },
      { constraints },
    )
    expect(file).toMatchObject({ network: 'public', keyvalues: { source: 'signed' } })
  })

  it('upload - a body that fails midway is refused with its own error and stores nothing', async () => {
    const test = createTestService()
    const broken = async function* () {
      yield patterned(300_000)
      throw Object.assign(new Error('socket closed'), { code: 'ECONNRESET' })
    }
    await expect(
      test.service.files.upload(alice, itemsOf({ kind: 'file', path: 'big.bin', content: broken() })),
    ).rejects.toThrow('socket closed')
    expect(await storedNothing(test)).toBe(true)
  })

  it('upload - an aborted upload is ABORTED and stores nothing', async () => {
    const test = createTestService()
    const controller = new AbortController()
    const slow = async function* () {
      yield patterned(100_000)
      controller.abort()
      yield patterned(100_000, 2)
    }
    await expect(
      test.service.files.upload(alice, itemsOf({ kind: 'file', path: 'big.bin', content: slow() }), {
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ code: 'ABORTED' })
    expect(await storedNothing(test)).toBe(true)
  })

  it("upload - the empty file gets Kubo's empty-file CID", async () => {
    const { service } = createTestService()
    const { file } = await uploadFile(service, alice, utf8(''))
    expect(file.cid).toBe('bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku')
    expect(file.size).toBe(0)
  })
})
