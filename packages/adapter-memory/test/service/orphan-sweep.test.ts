import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService } from '@pinfold/core'
import { describe, expect, it } from 'vitest'

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
    const referenced = (await records.getContent(file.cid))!.blobKey
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

/** A UUIDv7 whose timestamp is `ms`. */
function uuid7At(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7abc-8def-0123456789ab`
}
