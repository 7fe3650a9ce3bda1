/**
 * In-memory adapters for Pinfold: the executable specification of the ports, and the fastest way
 * to use Pinfold inside your own tests.
 *
 * ```ts
 * import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
 *
 * // The two stores core's `createFileService({ records, blobs })` takes (the README shows it whole).
 * const records = createMemoryRecordStore()
 * const blobs = createMemoryBlobStore()
 * ```
 */
export { createMemoryBlobStore, type MemoryBlobStore } from './memory-blob-store.js'
export { createMemoryChangeFeed } from './memory-change-feed.js'
export { createMemoryRecordStore } from './memory-record-store.js'
