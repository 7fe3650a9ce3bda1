/**
 * In-memory adapters for Pinfold: the executable specification of the ports, and the fastest way
 * to use Pinfold inside your own tests.
 *
 * ```ts
 * import { createFileService } from '@pinfold/core'
 * import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
 *
 * const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
 * ```
 */
export { createMemoryBlobStore, type MemoryBlobStore } from './memory-blob-store.js'
export { createMemoryRecordStore } from './memory-record-store.js'
