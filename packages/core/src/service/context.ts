import type { PaymentSettings } from '../payments/model.js'
import type { TextExtractor } from '../ports/vector-records.js'
import type { BlobStore, Clock, Embedder, IdSource, PaymentVerifier, RecordStore } from '../ports.js'

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
  /** x402 pay-per-request: the payment verifier and the settings of payment instructions. */
  payments?: PaymentVerifier | undefined
  paymentSettings?: PaymentSettings | undefined
  /** Semantic vectors: the embedder and the text extractor; without them vectorize/query refuse. */
  embedder?: Embedder | undefined
  textExtractor?: TextExtractor | undefined
}
