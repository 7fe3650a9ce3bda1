import { createHash, randomUUID } from 'node:crypto'
import { collect, patternBytes } from '@pinfold/conformance'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createS3BlobStore, type S3BlobStore } from '../src/index.js'
import { uploadObject } from '../src/multipart-upload.js'
import { countObjects } from './s3-harness.js'
import { startS3rver, testClient } from './s3-test-server.js'

const MIB = 1024 * 1024
const bucket = 'pinfold-s3-adapter'
let server: Awaited<ReturnType<typeof startS3rver>>

beforeAll(async () => {
  server = await startS3rver(bucket)
})

afterAll(() => server.close())

interface SetupOptions {
  partSize?: number
  queueSize?: number
  /** Runs before a command is sent; throwing fails the command (no retry at this step). */
  beforeCommand?: (name: string, input: Record<string, unknown>) => void | Promise<void>
  afterCommand?: (name: string) => void
}

/**
 * A store on its own client and prefix, the names of the commands that client sends, and a log of
 * when each one started and settled (`start:<name>`, `end:<name>`).
 */
function setup(options: SetupOptions = {}) {
  const client = testClient(server)
  const commands: string[] = []
  const events: string[] = []
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? '?'
      commands.push(name)
      events.push(`start:${name}`)
      try {
        await options.beforeCommand?.(name, args.input as Record<string, unknown>)
        const result = await next(args)
        options.afterCommand?.(name)
        return result
      } finally {
        events.push(`end:${name}`)
      }
    },
    { step: 'initialize', name: 'recordCommands' },
  )
  const prefix = `t-${randomUUID()}/`
  const store = createS3BlobStore({
    client,
    bucket,
    prefix,
    partSize: options.partSize,
    queueSize: options.queueSize,
  })
  return { client, commands, events, prefix, store }
}

/** A promise the test settles when it chooses. */
function holdUntilReleased(): { held: Promise<void>; release: () => void } {
  let release!: () => void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  return { held, release }
}

/** An error as the SDK reports a 503 from S3. */
function unavailable(): Error {
  return Object.assign(new Error('fake SlowDown'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } })
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

  it('put - a part failing mid-upload cancels the others, aborts the upload once they settle, and rejects coded', async () => {
    // Part 1 ignores the cancellation and settles only on a later turn of the event loop.
    const part1 = holdUntilReleased()
    const { store, commands, events, client, prefix } = setup({
      beforeCommand: async (name, input) => {
        if (name !== 'UploadPartCommand') return
        if (input.PartNumber === 1) await part1.held
        if (input.PartNumber === 3) {
          setImmediate(part1.release)
          throw unavailable()
        }
      },
    })
    await expect(store.put('failed-part', chunks(patternBytes(30 * MIB, 9), MIB))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    })
    expect(commands).not.toContain('CompleteMultipartUploadCommand')
    expect(commands.filter((c) => c === 'AbortMultipartUploadCommand')).toHaveLength(1)
    // Every part had settled before the abort was sent, so none can outlive it.
    const abortAt = events.indexOf('start:AbortMultipartUploadCommand')
    expect(events.lastIndexOf('end:UploadPartCommand')).toBeLessThan(abortAt)
    expect(events.filter((e) => e === 'start:UploadPartCommand')).toHaveLength(
      events.filter((e) => e === 'end:UploadPartCommand').length,
    )
    expect(await countObjects(client, bucket, prefix)).toBe(0)
  })

  it('put - a source failing while parts are in flight aborts the upload only after they settle', async () => {
    const failure = new Error('client went away mid-part')
    const part1 = holdUntilReleased()
    const { store, commands, events } = setup({
      beforeCommand: async (name) => {
        if (name === 'UploadPartCommand') await part1.held
      },
    })
    async function* source() {
      yield* chunks(patternBytes(7 * MIB, 14), MIB)
      setImmediate(part1.release)
      throw failure
    }
    await expect(store.put('broken-in-flight', source())).rejects.toBe(failure)
    expect(commands.at(-1)).toBe('AbortMultipartUploadCommand')
    expect(events.indexOf('end:UploadPartCommand')).toBeLessThan(events.indexOf('start:AbortMultipartUploadCommand'))
  })

  it('put - a failing CompleteMultipartUpload aborts the upload and leaves no object', async () => {
    const { store, commands, client, prefix } = setup({
      beforeCommand: (name) => {
        if (name === 'CompleteMultipartUploadCommand') throw unavailable()
      },
    })
    await expect(store.put('failed-complete', chunks(patternBytes(6 * MIB, 10), MIB))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    })
    expect(commands.at(-1)).toBe('AbortMultipartUploadCommand')
    expect(await countObjects(client, bucket, prefix)).toBe(0)
  })

  it('put - a source failing within the first part sends nothing and passes its error through', async () => {
    const failure = new Error('client went away early')
    const { store, commands } = setup()
    async function* source() {
      yield patternBytes(MIB, 11)
      throw failure
    }
    await expect(store.put('early', source())).rejects.toBe(failure)
    expect(commands).toEqual([])
  })

  it('put - the source is not read further while queueSize parts are in flight', async () => {
    const parked = holdUntilReleased()
    const bothInFlight = holdUntilReleased()
    let parts = 0
    const { store } = setup({
      queueSize: 2,
      beforeCommand: async (name) => {
        if (name !== 'UploadPartCommand') return
        if (++parts === 2) bothInFlight.release()
        await parked.held
      },
    })
    const bytes = patternBytes(30 * MIB, 12)
    let read = 0
    async function* source() {
      for await (const chunk of chunks(bytes, MIB)) {
        read += chunk.length
        yield chunk
      }
    }
    const put = store.put('bounded', source())
    await bothInFlight.held
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve))
    // Two parts held, plus the one chunk that showed there was more to come.
    expect(read).toBe(11 * MIB)
    expect(parts).toBe(2)
    parked.release()
    expect(await put).toEqual({ size: bytes.length })
    expect(sha(await collect(await store.get('bounded')))).toBe(sha(bytes))
  })

  it('staged - successive appends reuse one set of part buffers instead of allocating a set each', async () => {
    const { store } = setup({ queueSize: 2 })
    const allocate = vi.spyOn(Buffer, 'allocUnsafeSlow')
    try {
      const handle = await store.staged.begin('reused')
      const bytes = patternBytes(3 * 15 * MIB, 13)
      const tokens: string[] = []
      for (let at = 0; at < bytes.length; at += 15 * MIB) {
        const part = bytes.subarray(at, at + 15 * MIB)
        tokens.push((await store.staged.appendPart('reused', handle, at, chunks(part, MIB))).part)
      }
      // three appends of three parts each: the first allocates the two buffers, the others reuse them
      expect(allocate.mock.calls.filter(([size]) => size === 5 * MIB)).toHaveLength(2)
      expect(await store.staged.complete('reused', handle, tokens)).toEqual({ size: bytes.length })
      expect(sha(await collect(await store.get('reused')))).toBe(sha(bytes))
    } finally {
      allocate.mockRestore()
    }
  })

  it('put - a blob needing more parts than S3 allows rejects with PAYLOAD_TOO_LARGE and aborts the upload', async () => {
    const { client, commands, prefix } = setup()
    const target = { client, bucket, objectKey: `${prefix}huge`, key: 'huge', partSize: 5 * MIB, queueSize: 2 }
    await expect(
      uploadObject({ ...target, maxParts: 2 }, chunks(patternBytes(11 * MIB, 13), MIB), undefined),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
    expect(commands.filter((c) => c === 'UploadPartCommand')).toHaveLength(2)
    expect(commands.at(-1)).toBe('AbortMultipartUploadCommand')
    expect(await countObjects(client, bucket, prefix)).toBe(0)
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
