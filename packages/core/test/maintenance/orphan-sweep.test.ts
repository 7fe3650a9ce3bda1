import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import type { RecordStore } from '../../src/index.js'
import { createFileService } from '../../src/index.js'
import { alice, patterned, SIGNING_SECRET, streamOf, testClock } from '../support/test-service.js'

async function* bytes(text: string) {
  yield new TextEncoder().encode(text)
}

describe('sweepOrphanBlobs', () => {
  it('sweepOrphanBlobs - deletes old unreferenced blobs and keeps referenced, recent and foreign ones', async () => {
    const now = new Date('2026-06-01T02:00:00Z')
    const blobs = createMemoryBlobStore()
    // the stored file's blob is as old as the orphans: only its record keeps it
    const ids = { recordId: () => crypto.randomUUID(), blobKey: () => `blobs/${uuid7At(now.getTime() - 86_400_000)}` }
    const records = createMemoryRecordStore()
    const service = createFileService({ records, blobs, clock: { now: () => now }, ids })
    const { file } = await service.files.upload(
      { tenantId: 't', userId: 'u' },
      (async function* () {
        yield { kind: 'file' as const, path: 'kept.txt', content: bytes('kept') }
      })(),
    )
    const referenced = (await records.files.getContent(file.cid))!.blobKey
    // an orphan left by a crash a day ago (its UUIDv7 says so) and its sidecar, and one from a moment ago
    const dayOld = '0191d8e1-2000-7000-8000-000000000001'
    const recent = uuid7At(now.getTime() - 1000)
    await blobs.put(`blobs/${dayOld}`, bytes('orphan'))
    await blobs.put(`blobs/${dayOld}.idx`, bytes('orphan index'))
    await blobs.put(`blobs/${recent}`, bytes('upload in flight'))
    await blobs.put('tus/session/0', bytes('not ours to judge'))
    expect(await service.maintenance.sweepOrphanBlobs({ olderThanMs: 3600_000 })).toEqual({ examined: 4, deleted: 2 })
    expect(blobs.has(`blobs/${dayOld}`)).toBe(false)
    expect(blobs.has(`blobs/${dayOld}.idx`)).toBe(false)
    expect(blobs.has(referenced)).toBe(true)
    expect(blobs.has('tus/session/0')).toBe(true)
    expect(blobs.has(`blobs/${recent}`)).toBe(true)
    // once the in-flight upload is past the grace period too, it goes as well
    expect((await service.maintenance.sweepOrphanBlobs({ olderThanMs: 500 })).deleted).toBe(1)
    expect(blobs.has(`blobs/${recent}`)).toBe(false)
  })
})

describe('sweepOrphanBlobs - resumable uploads', () => {
  it('sweepOrphanBlobs - deletes old blobs a PATCH cut by a crash left, and keeps those a session holds', async () => {
    const blobs = createMemoryBlobStore()
    const records = createMemoryRecordStore()
    const service = createFileService({ records, blobs, signingSecret: SIGNING_SECRET })
    const sessionKeys = async () => {
      const keys: string[] = []
      for await (const { key } of blobs.list({ prefix: 'tus/' })) keys.push(key)
      return keys
    }
    const content = patterned(700_000)
    const upload = await service.uploads.create(alice, { length: content.length, options: { network: 'public' } })
    // not leaf-aligned: the session holds a carry blob and a blob of DAG nodes
    await service.uploads.append(upload.id, upload.token, 0, streamOf(content.subarray(0, 600_000)))
    const held = await sessionKeys()
    expect(held.length).toBeGreaterThan(0)
    // what a PATCH killed between storing its carry (or nodes) and advancing the session leaves, in
    // this session and in one since completed; a day old, as their keys' UUIDv7s say
    const dayOld = '0191d8e1-2000-7000-8000-000000000001'
    const strays = [`tus/${upload.id}/carry-600000-${dayOld}`, `tus/${uuid7At(Date.now())}/nodes-0-${dayOld}`]
    for (const key of strays) await blobs.put(key, bytes('cut short'))
    await blobs.put('tus/session/0', bytes('not a key core writes'))

    await service.maintenance.sweepOrphanBlobs({ olderThanMs: 3600_000 })
    for (const key of strays) expect(blobs.has(key), key).toBe(false)
    for (const key of held) expect(blobs.has(key), key).toBe(true)
    expect(blobs.has('tus/session/0')).toBe(true)
    // the session's own, made a moment ago, are kept even by a sweep of every age
    await service.maintenance.sweepOrphanBlobs({ olderThanMs: 0 })
    for (const key of held) expect(blobs.has(key), key).toBe(true)
    const last = await service.uploads.append(upload.id, upload.token, 600_000, streamOf(content.subarray(600_000)))
    expect(last.result?.file.size).toBe(content.length)
    expect(await sessionKeys()).toEqual(['tus/session/0'])
  })
})

describe('sweepOrphanBlobs - a resumable upload killed after assembling its blob', () => {
  it('sweepOrphanBlobs - keeps the assembled blob of a live session, which its retried completion records', async () => {
    const blobs = createMemoryBlobStore()
    const records = createMemoryRecordStore()
    // the process dies once the staged blob is assembled: its next store call never returns
    let assembled = false
    const dying: RecordStore = {
      ...records,
      blocks: {
        ...records.blocks,
        async putBlockLocations(...args) {
          if (assembled) await new Promise(() => {})
          return records.blocks.putBlockLocations(...args)
        },
      },
      uploadSessions: {
        ...records.uploadSessions,
        renewUploadCompletion: () => new Promise(() => {}),
      },
    }
    const dyingBlobs = {
      ...blobs,
      staged: {
        ...blobs.staged,
        async complete(...args: Parameters<typeof blobs.staged.complete>) {
          const done = await blobs.staged.complete(...args)
          assembled = true
          return done
        },
      },
    }
    const lease = { completionLeaseMs: 1_000 }
    const dead = createFileService({ records: dying, blobs: dyingBlobs, resumableUploads: lease })
    const content = patterned(600_000, 3)
    const upload = await dead.uploads.create(alice, { length: content.length, options: { network: 'public' } })
    void dead.uploads.append(upload.id, upload.token, 0, streamOf(content))
    while (!assembled) await new Promise((resolve) => setTimeout(resolve, 5))

    // restarted two hours after the session began: the hourly sweep runs before the client retries
    const clock = testClock(new Date(Date.now() + 2 * 3600_000))
    const restarted = createFileService({ records, blobs, clock, resumableUploads: lease })
    await restarted.maintenance.sweepOrphanBlobs()
    const retried = await restarted.uploads.append(upload.id, upload.token, content.length, streamOf(new Uint8Array(0)))
    expect(retried.result?.file.size).toBe(content.length)
    const stored = await records.files.getContent(retried.result!.file.cid)
    expect(blobs.has(stored!.blobKey)).toBe(true)
  })
})

/** A UUIDv7 whose timestamp is `ms`. */
function uuid7At(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7abc-8def-0123456789ab`
}
