import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import type { BlobStore, RecordStore } from '../../src/index.js'
import { createFileService } from '../../src/index.js'
import {
  alice,
  concat,
  createTestService,
  digest,
  patterned,
  SIGNING_SECRET,
  streamOf,
  uploadFile,
} from '../support/test-service.js'

const LEAF = 262_144

/** A blob store that counts the bytes read from it and the sizes of the staged parts appended to it. */
function counted(inner: BlobStore & { staged: NonNullable<BlobStore['staged']> }, minPartBytes?: number) {
  const stats = { bytesRead: 0, parts: [] as number[] }
  const store: BlobStore = {
    ...inner,
    async get(key, options) {
      const source = await inner.get(key, options)
      return (async function* () {
        for await (const chunk of source) {
          stats.bytesRead += chunk.length
          yield chunk
        }
      })()
    },
    staged: {
      ...inner.staged,
      minPartBytes: minPartBytes ?? inner.staged.minPartBytes,
      async appendPart(key, handle, offset, source, options) {
        const part = await inner.staged.appendPart(key, handle, offset, source, options)
        stats.parts.push(part.size)
        return part
      },
    },
  }
  return { store, stats }
}

function serviceOver(records: RecordStore, blobs: BlobStore) {
  return createFileService({ records, blobs, signingSecret: SIGNING_SECRET })
}

async function oneShotCid(bytes: Uint8Array): Promise<string> {
  return (await uploadFile(createTestService().service, alice, bytes, { network: 'public' })).file.cid
}

describe('resumable uploads on a blob store with staged writes', () => {
  it('the completing PATCH reads back only the first 4 KiB, whatever the size; the CID is the one-shot one', async () => {
    const { store, stats } = counted(createMemoryBlobStore())
    const records = createMemoryRecordStore()
    const service = serviceOver(records, store)
    const bytes = patterned(12 * LEAF + 1000)
    const upload = await service.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    // leaf-aligned PATCHes, as the SDK's 50 MiB ones are: nothing waits in a carry
    for (const at of [0, 4 * LEAF]) {
      await service.uploads.append(upload.id, upload.token, at, streamOf(bytes.subarray(at, at + 4 * LEAF)))
    }
    stats.bytesRead = 0
    const last = await service.uploads.append(upload.id, upload.token, 8 * LEAF, streamOf(bytes.subarray(8 * LEAF)))
    expect(stats.bytesRead).toBeLessThanOrEqual(4100)
    expect(last.result?.file.cid).toBe(await oneShotCid(bytes))
    expect(stats.parts).toEqual([4 * LEAF, 4 * LEAF, 4 * LEAF + 1000])
    // the assembled blob holds exactly the bytes sent
    const content = await records.files.getContent(last.result!.file.cid)
    expect(digest(await concat(await store.get(content!.blobKey)))).toBe(digest(bytes))
  })

  it('PATCHes that end inside a leaf keep its bytes in a carry: each part holds whole leaves but the last', async () => {
    const { store, stats } = counted(createMemoryBlobStore())
    const service = serviceOver(createMemoryRecordStore(), store)
    const bytes = patterned(5 * LEAF + 4321, 7)
    const upload = await service.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    const cuts = [0, 100_000, 100_001, 700_000, 3 * LEAF + 5, bytes.length]
    let result: string | undefined
    for (let i = 0; i + 1 < cuts.length; i++) {
      const answer = await service.uploads.append(
        upload.id,
        upload.token,
        cuts[i]!,
        streamOf(bytes.subarray(cuts[i], cuts[i + 1]), 9_999),
      )
      expect(answer.offset).toBe(cuts[i + 1])
      result = answer.result?.file.cid
    }
    expect(result).toBe(await oneShotCid(bytes))
    expect(stats.parts.slice(0, -1).every((size) => size % LEAF === 0)).toBe(true)
    expect(stats.parts.reduce((a, b) => a + b, 0)).toBe(bytes.length)
    // nothing of the session is left: its carries went with it
    for await (const { key } of store.list!({ prefix: 'tus/' })) throw new Error(`left behind: ${key}`)
  })

  it('a store with a minimum part size (S3) gets parts of at least that size but the last', async () => {
    const minimum = 3 * LEAF
    const { store, stats } = counted(createMemoryBlobStore(), minimum)
    const service = serviceOver(createMemoryRecordStore(), store)
    const bytes = patterned(10 * LEAF + 17, 3)
    const upload = await service.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    let result: string | undefined
    for (let at = 0; at < bytes.length; at += 200_000) {
      const end = Math.min(bytes.length, at + 200_000)
      result = (await service.uploads.append(upload.id, upload.token, at, streamOf(bytes.subarray(at, end)))).result
        ?.file.cid
    }
    expect(result).toBe(await oneShotCid(bytes))
    expect(stats.parts.length).toBeGreaterThan(1)
    expect(stats.parts.slice(0, -1).every((size) => size >= minimum)).toBe(true)
  })

  it('another service over the same stores (a restart, another instance) finishes an upload begun here', async () => {
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const bytes = patterned(3 * LEAF + 99, 11)
    const first = serviceOver(records, blobs)
    const upload = await first.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    await first.uploads.append(upload.id, upload.token, 0, streamOf(bytes.subarray(0, LEAF + 10)))
    const second = serviceOver(records, blobs)
    expect((await second.uploads.status(upload.id, upload.token)).offset).toBe(LEAF + 10)
    const last = await second.uploads.append(upload.id, upload.token, LEAF + 10, streamOf(bytes.subarray(LEAF + 10)))
    expect(last.result?.file.cid).toBe(await oneShotCid(bytes))
  })

  it('a completion that failed is retried by an empty PATCH at the final offset, from the blob it assembled', async () => {
    const records = createMemoryRecordStore()
    let failNext = true
    const flaky: RecordStore = {
      ...records,
      files: {
        ...records.files,
        async createFile(...args) {
          if (failNext) {
            failNext = false
            throw new Error('the database went away')
          }
          return records.files.createFile(...args)
        },
      },
    }
    const { store, stats } = counted(createMemoryBlobStore())
    const service = serviceOver(flaky, store)
    const bytes = patterned(2 * LEAF + 5, 13)
    const upload = await service.uploads.create(alice, { length: bytes.length, options: { network: 'public' } })
    await expect(service.uploads.append(upload.id, upload.token, 0, streamOf(bytes))).rejects.toThrow(
      'the database went away',
    )
    const retried = await service.uploads.append(upload.id, upload.token, bytes.length, streamOf(new Uint8Array(0)))
    expect(retried.result?.file.cid).toBe(await oneShotCid(bytes))
    expect(stats.parts).toEqual([bytes.length])
  })
})
