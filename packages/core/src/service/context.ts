import type { BlobStore, Clock, IdSource, RecordStore } from '@pinfold/interface'
import type { ServiceFeatures } from './features.js'

/** What every service operation may use. Built once by `createFileService`. */
export interface ServiceContext {
  records: RecordStore
  blobs: BlobStore
  clock: Clock
  ids: IdSource
  /** Largest accepted upload, in bytes. */
  maxUploadBytes: number
  /**
   * The optional features (signed URLs, download links, payments, vectors) and their prerequisites:
   * operations ask `features.require(name)` rather than checking options themselves.
   */
  features: ServiceFeatures
}
