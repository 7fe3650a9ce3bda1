import type { BlobStore, Clock, IdSource, RecordStore } from '../ports.js'

/** What every service operation may use. Built once by `createFileService`. */
export interface ServiceContext {
  records: RecordStore
  blobs: BlobStore
  clock: Clock
  ids: IdSource
  /** Largest accepted upload, in bytes. */
  maxUploadBytes: number
  /** Secret for the URLs the service signs (upload URLs, download links); see `createUrlSigner`. */
  signingSecret: string | Uint8Array | undefined
}
