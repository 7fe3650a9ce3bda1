/**
 * Conformance suites for Pinfold's ports. Each adapter package runs them from its own tests:
 *
 * ```ts
 * import { describeBlobStore } from '@pinfold/conformance'
 * import { createMemoryBlobStore } from '@pinfold/adapter-memory'
 *
 * describeBlobStore('memory', async () => {
 *   const store = createMemoryBlobStore()
 *   return { store, probe: { exists: async (key) => store.has(key) } }
 * })
 * ```
 */
export {
  type BlobCapabilities,
  type BlobProbe,
  type BlobStoreHarness,
  describeBlobStore,
} from './blob-store.js'
export { collect, patternBytes } from './bytes.js'
export { type ChangeFeedHarness, describeChangeFeed } from './change-feed.js'
export { describeEventRecords, MALFORMED_EVENT, newEvent } from './event-records.js'
export { describeImageTransformer, testPng } from './image-transformer.js'
export { describePinRequestRecords } from './pin-request-records.js'
export { describeRecordStore, type RecordProbe, type RecordStoreHarness } from './record-store.js'
export { describeTenantDenyRuleRecords } from './tenant-deny-rule-records.js'
export { describeUploadSessionRecords } from './upload-session-records.js'
export { describeVectorRecords } from './vector-records.js'
export { describeWebhookRecords } from './webhook-records.js'
