import { createHash, randomUUID } from 'node:crypto'
import type { S3Client } from '@aws-sdk/client-s3'
import { collect, patternBytes } from '@pinfold/conformance'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createS3BlobStore, type S3BlobStore } from '../src/index.js'
import { countObjects } from './s3-harness.js'
import { startS3rver, testClient } from './s3-test-server.js'

const MIB = 1024 * 1024
const bucket = 'pinfold-s3-adapter'
let server: Awaited<ReturnType<typeof startS3rver>>

beforeAll(async () => {
  server = await startS3rver(bucket)
})

afterAll(() => server.close())

/** A store on its own client and prefix, and the names of the commands that client sends. */
function setup(options: { partSize?: number; afterCommand?: (name: string) => void } = {}) {
  const client = testClient(server)
  const commands: string[] = []
  client.middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(context.commandName ?? '?')
      const result = await next(args)
      options.afterCommand?.(context.commandName ?? '?')
      return result
    },
    { step: 'initialize', name: 'recordCommands' },
  )
  const prefix = `t-${randomUUID()}/`
  const store = createS3BlobStore({ client, bucket, prefix, partSize: options.partSize })
  return { client, commands, prefix, store }
}

describe('S3BlobStore', () => {
  it('put - a blob larger than partSize streams as a multipart upload and round-trips byte-exact', async () => {
    const { store, commands } = setup({ partSize: 5 * MIB })
    const bytes = patternBytes(12 * MIB, 1)
    expect(await store.put('big', chunks(bytes, 256 * 1024))).toEqual({ size: bytes.length })
    expect(commands.filter((c) => c === 'CreateMultipartUploadCommand')).toHaveLength(1)
    expect(commands.filter((c) => c === 'UploadPartCommand')).toHaveLength(3)
    expect(commands).toContain('CompleteMultipartUploadCommand')
    expect(sha(await collect(await store.get('big')))).toBe(sha(bytes))
    const tail = await collect(await store.get('big', { range: { offset: 10 * MIB, length: 3 * MIB } }))
    expect(Buffer.from(tail).equals(bytes.subarray(10 * MIB))).toBe(true)
  })

  it('put - an abort during a multipart upload rejects with ABORTED and aborts the upload', async () => {
    const controller = new AbortController()
    let partUploaded!: () => void
    const uploaded = new Promise<void>((resolve) => {
      partUploaded = resolve
    })
    const { store, commands, client, prefix } = setup({
      afterCommand: (name) => name === 'UploadPartCommand' && partUploaded(),
    })
    async function* source() {
      yield* chunks(patternBytes(6 * MIB, 2), MIB)
      await uploaded
      controller.abort()
      yield patternBytes(MIB, 3)
    }
    await expect(store.put('aborted', source(), { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    })
    expect(commands).toContain('AbortMultipartUploadCommand')
    expect(commands).not.toContain('CompleteMultipartUploadCommand')
    expect(await countObjects(client, bucket, prefix)).toBe(0)
  })

  it('put - a source failing during a multipart upload passes its error through and aborts the upload', async () => {
    const failure = new Error('client went away')
    const { store, commands } = setup()
    async function* source() {
      yield* chunks(patternBytes(6 * MIB, 4), MIB)
      throw failure
    }
    await expect(store.put('broken', source())).rejects.toBe(failure)
    expect(commands).toContain('AbortMultipartUploadCommand')
    expect(await store.head('broken')).toBeUndefined()
  })

  it('put - chunks the producer reuses after handing them over are stored as they were', async () => {
    const { store } = setup()
    const buffer = new Uint8Array(1000)
    async function* reusing() {
      for (let i = 0; i < 5; i++) {
        buffer.fill(i)
        yield buffer
      }
    }
    await store.put('reused', reusing())
    const stored = await collect(await store.get('reused'))
    expect([0, 1000, 2000, 3000, 4000].map((at) => stored[at])).toEqual([0, 1, 2, 3, 4])
  })

  it('get - a range starting exactly at the end reads nothing, past the end is RANGE_NOT_SATISFIABLE', async () => {
    const { store } = setup()
    await store.put('ten', chunks(patternBytes(10, 5), 10))
    expect((await collect(await store.get('ten', { range: { offset: 10 } }))).length).toBe(0)
    expect((await collect(await store.get('ten', { range: { offset: 3, length: 0 } }))).length).toBe(0)
    await expect(store.get('ten', { range: { offset: 11, length: 0 } })).rejects.toMatchObject({
      code: 'RANGE_NOT_SATISFIABLE',
    })
    await expect(store.get('missing', { range: { offset: 5 } })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('get - a negative offset rejects with INVALID_INPUT', async () => {
    const { store } = setup()
    await expect(store.get('k', { range: { offset: -1 } })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('list - strips the prefix and ignores other prefixes', async () => {
    const { store, client } = setup()
    const other = createS3BlobStore({ client, bucket, prefix: `t-${randomUUID()}/` })
    for (const key of ['a/1', 'a/2', 'b/1']) await store.put(key, chunks(patternBytes(4, 6), 4))
    await other.put('a/9', chunks(patternBytes(4, 7), 4))
    expect(await keys(store, 'a/')).toEqual(['a/1', 'a/2'])
    expect(await keys(store)).toEqual(['a/1', 'a/2', 'b/1'])
  })

  it('presignGet - the URL serves the requested content type and disposition', async () => {
    const { store } = setup()
    await store.put('doc', chunks(patternBytes(100, 8), 100))
    const url = await store.presignGet('doc', {
      expiresInSeconds: 60,
      contentType: 'application/pdf',
      contentDisposition: 'attachment; filename="report.pdf"',
    })
    const res = await fetch(url)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="report.pdf"')
    expect((await res.arrayBuffer()).byteLength).toBe(100)
  })

  it('presignGet - an expiry beyond seven days rejects with INVALID_INPUT', async () => {
    const { store } = setup()
    await expect(store.presignGet('doc', { expiresInSeconds: 8 * 24 * 3600 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })

  it('createS3BlobStore - validates options eagerly, naming the package and option', () => {
    const client = server.client
    expect(() => createS3BlobStore({ client: undefined as unknown as S3Client, bucket })).toThrow(
      /@pinfold\/adapter-s3: `client`/,
    )
    expect(() => createS3BlobStore({ client, bucket: '' })).toThrow(/@pinfold\/adapter-s3: `bucket`/)
    expect(() => createS3BlobStore({ client, bucket, partSize: MIB })).toThrow(/@pinfold\/adapter-s3: `partSize`/)
    expect(() => createS3BlobStore({ client, bucket, queueSize: 0 })).toThrow(/@pinfold\/adapter-s3: `queueSize`/)
    expect(() => createS3BlobStore({ client, bucket, prefix: '/abs' })).toThrow(/@pinfold\/adapter-s3: `prefix`/)
  })
})

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

function sha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

async function keys(store: S3BlobStore, prefix?: string): Promise<string[]> {
  const found: string[] = []
  for await (const info of store.list({ prefix })) found.push(info.key)
  return found.sort()
}
