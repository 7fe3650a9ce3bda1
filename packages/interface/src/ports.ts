/**
 * The ports: the only ways core reaches the outside world. Adapters implement them; the conformance
 * suites in `@pinfold/conformance` prove that an implementation keeps every contract written here.
 *
 * Shared rules for every port:
 * - Every method is async and accepts `{ signal }`; an aborted signal rejects with code `ABORTED`.
 * - Failures are {@link PinfoldError}s with a code. Adapters wrap backend failures with `{ cause }`
 *   (a database or network outage is `UNAVAILABLE`) and never swallow them.
 * - Ids are opaque strings chosen by core; stores never invent ids.
 * - "Tenant-scoped" lookups treat a record of another tenant exactly like a missing one.
 */
import type { CallOptions } from './call-options.js'
import type {
  ContentRecord,
  FileFilter,
  FilePatch,
  FileRecord,
  GroupFilter,
  GroupPatch,
  GroupRecord,
  Network,
  NewFile,
  Page,
  PageRequest,
} from './model.js'
import type { ApiKeyRecordStore } from './ports/api-key-records.js'
import type { BlockRecordStore } from './ports/block-records.js'
import type { GatewayRecordStore } from './ports/gateway-records.js'
import type { PaymentRecordStore } from './ports/payment-records.js'
import type { PinRequestRecordStore } from './ports/pin-request-records.js'
import type { UploadSessionRecordStore } from './ports/upload-session-records.js'
import type { UsageRecordStore } from './ports/usage-records.js'
import type { VectorRecordStore } from './ports/vector-records.js'

// ---------------------------------------------------------------------------------------------
// RecordStore
// ---------------------------------------------------------------------------------------------

export interface CreatedFile {
  file: FileRecord
  /** True when this tenant already held a file with this CID on this network before this call. */
  isDuplicate: boolean
  /**
   * The content record that now backs the file. When another upload of the same CID won the race
   * (or came earlier), this is *its* record and the caller's blob is redundant: the caller deletes it.
   */
  content: ContentRecord
}

export interface CreateFileOptions extends CallOptions {
  /** Only reference an existing content record, never store `content` (see `createFile`). */
  requireContent?: boolean | undefined
}

export interface DeletedFile {
  file: FileRecord
  /**
   * Set when the deleted file was the last one referencing its CID: the content record is gone too
   * and the caller must delete this blob. Exactly one of several concurrent deleters receives it.
   */
  releasedContent?: ContentRecord | undefined
}

/**
 * All metadata, one sub-interface per feature. One implementation backs one deployment; several
 * server processes may share it, so every "exactly one" in the contracts must hold across processes.
 */
export interface RecordStore
  extends FileRecordStore,
    GroupRecordStore,
    VectorRecordStore,
    GatewayRecordStore,
    BlockRecordStore,
    PaymentRecordStore,
    UploadSessionRecordStore,
    ApiKeyRecordStore,
    UsageRecordStore,
    PinRequestRecordStore {}

/** Files and the contents (stored bytes) they reference. */
export interface FileRecordStore {
  /**
   * Records an uploaded file, atomically with its content:
   * - If no content record exists for `content.cid`, `content` is stored and returned.
   * - Otherwise the existing content record is kept and returned (the caller's blob is redundant).
   *   Of many concurrent calls with the same new CID, exactly one stores its content record.
   * - `isDuplicate` is decided under the same lock: of N concurrent calls by one tenant on one
   *   network with one CID, at most one answers `false`.
   * - `file.groupId`, when set, must name a group of the same tenant and network, else `NOT_FOUND`
   *   and nothing is written.
   * - `file.id` is new; reusing an id is a `CONFLICT`.
   * - With `requireContent`, the caller wrote no blob and shares the content other files
   *   reference: if no content record exists for `content.cid` (its last file was deleted, and
   *   its blob goes with it), nothing is written and the answer is `NOT_FOUND`. Against a
   *   concurrent `deleteFile` of the last file either this call comes first (the file is made and
   *   the content is no longer released) or it answers `NOT_FOUND`: never a file on a released blob.
   */
  createFile(file: NewFile, content: ContentRecord, options?: CreateFileOptions): Promise<CreatedFile>

  /** Tenant-scoped lookup. */
  getFile(tenantId: string, network: Network, id: string, options?: CallOptions): Promise<FileRecord | undefined>

  /**
   * A keyset page of the tenant's files on one network, ordered by `(createdAt, id)` in `page.order`,
   * starting strictly after `page.after`. Filters combine with AND.
   */
  listFiles(
    tenantId: string,
    network: Network,
    filter: FileFilter,
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<FileRecord>>

  /**
   * Applies a patch; returns the updated record, or `undefined` when the file does not exist for
   * this tenant and network. A `groupId` must name a group of the same tenant and network, else
   * `NOT_FOUND` and nothing changes.
   */
  updateFile(
    tenantId: string,
    network: Network,
    id: string,
    patch: FilePatch,
    options?: CallOptions,
  ): Promise<FileRecord | undefined>

  /**
   * Deletes a file record. When it was the last record referencing its CID, the content record is
   * deleted in the same atomic step and returned as `releasedContent`; a concurrent `createFile` of
   * the same CID either sees the content before (and keeps it alive) or recreates it after.
   */
  deleteFile(tenantId: string, network: Network, id: string, options?: CallOptions): Promise<DeletedFile | undefined>

  /** The content record of a CID, if any file references it. */
  getContent(cid: string, options?: CallOptions): Promise<ContentRecord | undefined>

  /**
   * Whether a content record owns this blob key. The orphan sweep deletes only blobs for which
   * this is false (and which are older than any upload in flight).
   */
  isBlobReferenced(blobKey: string, options?: CallOptions): Promise<boolean>
}

/** Groups of files; a group lives on one network of one tenant. */
export interface GroupRecordStore {
  /** Stores a new group; reusing an id is a `CONFLICT`. */
  createGroup(group: GroupRecord, options?: CallOptions): Promise<GroupRecord>

  getGroup(tenantId: string, network: Network, id: string, options?: CallOptions): Promise<GroupRecord | undefined>

  /** Keyset page like {@link RecordStore.listFiles}. */
  listGroups(
    tenantId: string,
    network: Network,
    filter: GroupFilter,
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<GroupRecord>>

  updateGroup(
    tenantId: string,
    network: Network,
    id: string,
    patch: GroupPatch,
    options?: CallOptions,
  ): Promise<GroupRecord | undefined>

  /** Deletes a group; its files stay and belong to no group afterwards. False when absent. */
  deleteGroup(tenantId: string, network: Network, id: string, options?: CallOptions): Promise<boolean>
}

// ---------------------------------------------------------------------------------------------
// BlobStore
// ---------------------------------------------------------------------------------------------

/** Keys core uses: ASCII letters, digits, `-`, `_`, `.` and `/`; at most 512 characters; no `..`. */
export const BLOB_KEY_PATTERN = /^(?!.*\.\.)[A-Za-z0-9_.\-/]{1,512}$/

export interface ByteRange {
  /** First byte, 0-based; at most the blob's size. */
  offset: number
  /** Number of bytes; clamped to the end of the blob. Omitted means "to the end". */
  length?: number | undefined
}

export interface BlobInfo {
  key: string
  size: number
}

export interface PresignOptions {
  expiresInSeconds: number
  contentType?: string | undefined
  /** A full `Content-Disposition` value for the response. */
  contentDisposition?: string | undefined
}

/**
 * Opaque bytes under string keys. Content addressing is core's job: a blob store neither hashes
 * nor dedupes; it stores and returns bytes, streaming both ways.
 */
export interface BlobStore {
  /**
   * Writes every byte of `source` under `key` and resolves with the number of bytes written.
   * Atomic: readers see either no object or the complete one. If `source` throws, the signal
   * aborts or the backend fails, the promise rejects and nothing is left under `key`.
   * Memory use is bounded independently of the blob's size.
   */
  put(key: string, source: AsyncIterable<Uint8Array>, options?: CallOptions): Promise<{ size: number }>

  /**
   * Streams a blob, or the given range of it. Rejects with `NOT_FOUND` when the key is absent and
   * `RANGE_NOT_SATISFIABLE` when `range.offset` exceeds the size. Reads only the bytes asked for,
   * and yields exactly them: `range.length` bytes from `range.offset`, fewer only where the blob
   * ends (the gateway serves them as they come, so a byte more is a corrupt answer).
   */
  get(key: string, options?: CallOptions & { range?: ByteRange | undefined }): Promise<AsyncIterable<Uint8Array>>

  /** Size of a blob, or `undefined` when absent. */
  head(key: string, options?: CallOptions): Promise<BlobInfo | undefined>

  /** Removes a blob. Idempotent: deleting an absent key succeeds. */
  delete(key: string, options?: CallOptions): Promise<void>

  /** Optional: a time-limited URL from which a client can GET the blob directly (S3). */
  presignGet?(key: string, options: PresignOptions & CallOptions): Promise<string>

  /** Optional: every key under a prefix, for sweeping blobs that no record references. */
  list?(options?: CallOptions & { prefix?: string | undefined }): AsyncIterable<BlobInfo>

  /**
   * Optional: writing one blob in parts over time (a resumable upload stores each accepted request
   * as a part and makes the blob from them without reading them back). A store without it makes
   * core keep every part as a blob of its own and copy them into the final blob at the end.
   */
  staged?: StagedBlobWrites | undefined
}

/** What one `appendPart` stored: its size, and the token `complete` takes for it. */
export interface StagedPart {
  size: number
  /** Opaque and JSON-safe: the caller persists it and hands it back to `complete`, maybe from another process. */
  part: string
}

/**
 * A blob written in parts, possibly by several processes one after another (the handle and the part
 * tokens are plain strings the caller persists). Nothing is visible under the key until `complete`.
 *
 * - Parts are appended in order, one at a time: the caller never runs two `appendPart`s of one
 *   staged write at once. `offset` is the total size of the parts before this one.
 * - Appending at an offset again (after a failed or refused part) replaces what was written from
 *   there on; a part whose source fails or whose signal aborts rejects, and may be appended again.
 * - Every part but the last holds at least `minPartBytes` bytes; the caller buffers smaller ones.
 * - Memory use is bounded independently of the size of a part.
 */
export interface StagedBlobWrites {
  /** The smallest part but the last that the store accepts (S3: its part size, at least 5 MiB). */
  readonly minPartBytes: number

  /** Starts a staged write of `key`; resolves with its handle. */
  begin(key: string, options?: CallOptions): Promise<string>

  /** Streams one part, starting `offset` bytes into the blob. Durable once it resolves. */
  appendPart(
    key: string,
    handle: string,
    offset: number,
    source: AsyncIterable<Uint8Array>,
    options?: CallOptions,
  ): Promise<StagedPart>

  /**
   * Makes the blob under `key` the given parts, in order (none: an empty blob), without copying
   * their bytes through the caller. Atomic like `put`; the handle is spent once it resolves.
   */
  complete(key: string, handle: string, parts: readonly string[], options?: CallOptions): Promise<{ size: number }>

  /** Drops a staged write and every part of it. Idempotent; a no-op for a completed one. */
  abort(key: string, handle: string, options?: CallOptions): Promise<void>
}

// ---------------------------------------------------------------------------------------------
// Embedder
// ---------------------------------------------------------------------------------------------

/**
 * Turns text into unit-length vectors whose cosine similarity reflects meaning. `id` names the
 * model and its settings; a vector index built with one `id` must not be queried with another.
 */
export interface Embedder {
  readonly id: string
  readonly dimensions: number
  /**
   * One vector per text, in order, each of length `dimensions` and L2-normalised.
   * `purpose` lets asymmetric models embed queries and documents differently.
   */
  embed(texts: readonly string[], options?: CallOptions & { purpose?: 'document' | 'query' }): Promise<Float32Array[]>
}

// ---------------------------------------------------------------------------------------------
// PaymentVerifier
// ---------------------------------------------------------------------------------------------

/** What the server asks to be paid, in x402 terms (one entry of `accepts`). */
export interface PaymentRequirement {
  scheme: 'exact'
  /** x402 v1 network name, e.g. `base-sepolia`. */
  network: string
  /** ERC-20 token contract (USDC). */
  asset: `0x${string}`
  payTo: `0x${string}`
  /** Price in the token's atomic units, as a decimal string. */
  amount: string
  /** Absolute URL of the thing being paid for. */
  resource: string
  description: string
  mimeType: string
  maxTimeoutSeconds: number
  /** The token's EIP-712 domain name and version. */
  extra: { name: string; version: string }
}

/** An EIP-3009 `transferWithAuthorization`, as carried by both x402 versions. */
export interface PaymentAuthorization {
  from: `0x${string}`
  to: `0x${string}`
  value: string
  validAfter: string
  validBefore: string
  nonce: `0x${string}`
}

/** A decoded payment, normalised across x402 v1 (`X-PAYMENT`) and v2 (`PAYMENT-SIGNATURE`). */
export interface PaymentPayload {
  x402Version: 1 | 2
  scheme: string
  network: string
  signature: `0x${string}`
  authorization: PaymentAuthorization
}

export type PaymentVerification =
  | { valid: true; payer: `0x${string}`; nonce: `0x${string}` }
  | { valid: false; reason: string }

export interface PaymentSettlement {
  success: boolean
  /** Transaction hash; empty when the payment was only verified offline or failed. */
  transaction: string
  network: string
  payer: string
  errorReason?: string | undefined
}

/**
 * Checks a payment against a requirement. `verify` is side-effect free; replay protection is core's
 * job (it claims `(payer, nonce)` in the record store). `settle` moves the money where the verifier
 * can (a facilitator); an offline verifier settles nothing and says so in its result. A facilitator
 * that cannot be reached rejects with `UNAVAILABLE`.
 */
export interface PaymentVerifier {
  verify(payment: PaymentPayload, requirement: PaymentRequirement, options?: CallOptions): Promise<PaymentVerification>
  settle(payment: PaymentPayload, requirement: PaymentRequirement, options?: CallOptions): Promise<PaymentSettlement>
}

// ---------------------------------------------------------------------------------------------
// TextExtractor
// ---------------------------------------------------------------------------------------------

/**
 * A file's bytes in, passages of readable text out (`extractPassages` of `@pinfold/text-extract`
 * fits). Reads at most `maxBytes`; content it cannot read is `INVALID_INPUT`. An extractor with
 * bounded slots shares them fairly between tenants (`tenant`: whose file it is): past a tenant's
 * share its next extraction is `RATE_LIMITED` while other tenants' still run.
 */
export type TextExtractor = (
  source: AsyncIterable<Uint8Array>,
  options: {
    mimeType: string
    fileName?: string | undefined
    maxBytes?: number | undefined
    tenant?: string | undefined
    signal?: AbortSignal | undefined
  },
) => Promise<string[]>

// ---------------------------------------------------------------------------------------------
// TxtResolver
// ---------------------------------------------------------------------------------------------

/**
 * DNS TXT lookups for custom-domain verification: each record as its character-strings
 * (`node:dns/promises` `resolveTxt` fits; a resolver that cannot be aborted ignores the signal).
 */
export type TxtResolver = (name: string, options?: CallOptions) => Promise<string[][]>

// ---------------------------------------------------------------------------------------------
// Clock and ids (injectable for tests)
// ---------------------------------------------------------------------------------------------

export interface Clock {
  now(): Date
}

export interface IdSource {
  /** A new unique, time-ordered id (UUIDv7) for files, groups and other records. */
  recordId(): string
  /** A new unique blob key. */
  blobKey(): string
}
