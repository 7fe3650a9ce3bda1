import { join } from 'node:path'
import type { MemoryBlobStore } from '@pinfold/adapter-memory'
import type { BlobStore } from '@pinfold/core'
import { countFsBlobs, freshSchema, STORAGE, startS3rver } from '@pinfold/testing/storage'

/**
 * The storage `PINFOLD_TEST_STORAGE` names (see packages/testing/src/storage.ts), as the
 * environment `readConfig` reads: `PINFOLD_STORAGE`, `DATABASE_URL` on a fresh schema, the S3
 * settings of an s3rver started here.
 */
export interface PreparedStorage {
  env: Record<string, string>
  /** Blobs held by the server's store, counted in the backend itself (sync, for assertions). */
  countBlobs(blobs: BlobStore, dataDir: string): number
  close(): Promise<void>
}

export async function prepareStorage(storage = STORAGE): Promise<PreparedStorage> {
  if (storage === 'memory') {
    return {
      env: { PINFOLD_STORAGE: 'memory' },
      countBlobs: (blobs) => (blobs as MemoryBlobStore).count,
      close: async () => {},
    }
  }
  const fsBlobs = (_: BlobStore, dataDir: string) => countFsBlobs(join(dataDir, 'blobs'))
  if (storage === 'embedded')
    return { env: { PINFOLD_STORAGE: 'embedded' }, countBlobs: fsBlobs, close: async () => {} }
  const database: Record<string, string> = process.env.TEST_DATABASE_URL
    ? { DATABASE_URL: await freshSchema(process.env.TEST_DATABASE_URL) }
    : {}
  if (storage === 'postgres') {
    if (!process.env.TEST_DATABASE_URL) throw new Error('PINFOLD_TEST_STORAGE=postgres needs TEST_DATABASE_URL')
    return { env: { PINFOLD_STORAGE: 'embedded', ...database }, countBlobs: fsBlobs, close: async () => {} }
  }
  const s3 = await startS3rver()
  return {
    env: { PINFOLD_STORAGE: 'embedded', ...database, ...s3.env },
    countBlobs: s3.countObjects,
    close: s3.close,
  }
}
