import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { RecordStoreHarness } from './record-store.js'

/** `isBlobReferenced`: what the orphan-blob sweep relies on to never delete bytes a record owns. */
export function describeBlobReferenceRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`RecordStore conformance: ${name}: blob references`, () => {
    it('isBlobReferenced - true while a content record owns the key, false before and after', async () => {
      const { store, close } = await create()
      try {
        const blobKey = `blobs/${randomUUID()}`
        const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
        expect(await store.isBlobReferenced(blobKey)).toBe(false)
        const { file } = await store.createFile(
          {
            id: randomUUID(),
            tenantId: 't1',
            userId: 'u1',
            network: 'public',
            name: 'empty',
            cid,
            size: 0,
            numberOfFiles: 1,
            mimeType: 'application/octet-stream',
            groupId: null,
            keyvalues: {},
            createdAt: new Date(Date.UTC(2026, 0, 1)),
            expiresAt: null,
          },
          { cid, blobKey, size: 0, kind: 'file', profile: 'v1' },
        )
        expect(await store.isBlobReferenced(blobKey)).toBe(true)
        expect(await store.isBlobReferenced(`${blobKey}-other`)).toBe(false)
        await store.deleteFile('t1', 'public', file.id)
        expect(await store.isBlobReferenced(blobKey)).toBe(false)
      } finally {
        await close?.()
      }
    })
  })
}
