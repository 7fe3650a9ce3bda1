/**
 * Pinfold's domain: uploads with Kubo-identical CIDs, files, groups and auth, behind four ports.
 *
 * ```ts
 * import { createFileService } from '@pinfold/core'
 * import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
 *
 * const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
 * const actor = { tenantId: 'acme', userId: 'alice' }
 * const content = (async function* () { yield new TextEncoder().encode('hello world') })()
 * const { file } = await service.files.upload(actor, [{ kind: 'file', path: 'hello.txt', content }])
 * console.log(file.cid) // bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e
 * ```
 */
export { allows, SCOPES, type Scope } from './auth/scopes.js'
export * from './auth/tokens.js'
export { createUrlSigner, SIGNATURE_PARAM, type UrlSigner } from './auth/url-signing.js'
export { indexKeyOf, PLACEHOLDER_ROOT } from './dag/car-blob.js'
export { type ContentDag, openContentDag } from './dag/content-dag.js'
export * from './errors.js'
export { type DagScope, encodeCar } from './gateway/car-stream.js'
export { detectMimeType, mimeTypeFromName } from './mime.js'
export * from './model.js'
export { type OptionChecks, optionChecks } from './options.js'
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type PageQuery } from './pagination.js'
export type { PaymentNetwork, PaymentSettings } from './payments/model.js'
export type * from './ports/block-records.js'
export { BLOCK_SOURCES } from './ports/block-records.js'
export type * from './ports/gateway-records.js'
export { DOMAIN_STATUSES } from './ports/gateway-records.js'
export type * from './ports/payment-records.js'
export type * from './ports/upload-session-records.js'
export type * from './ports/vector-records.js'
export type * from './ports.js'
export { BLOB_KEY_PATTERN } from './ports.js'
export { DIRECTORY_MIME_TYPE, mimeTypeAllowed } from './service/allowed-mime-types.js'
export { normaliseDomain, PENDING_DOMAIN_TTL_MS, type TxtResolver, VERIFICATION_PREFIX } from './service/domains.js'
export { DOWNLOAD_LINK_ALGORITHM, type DownloadLinkRequest, MAX_LINK_SECONDS } from './service/download-links.js'
export {
  createFileService,
  type FileService,
  type FileServiceOptions,
  systemClock,
  uuidIds,
} from './service/file-service.js'
export type { FileListQuery, FileUpdate } from './service/files.js'
export {
  type DirectoryItem,
  type GatewayEntry,
  type GatewayRoot,
  type GatewayScope,
  parseCid,
  resolveEntityBytes,
} from './service/gateway.js'
export type { GroupListQuery } from './service/groups.js'
export {
  DEFAULT_RETRIEVAL_AMOUNT,
  NONCE_ALREADY_USED,
  type PaymentChoice,
  type PaymentInstructionInput,
  type PaymentInstructionListQuery,
  type PaymentTermsInput,
  type RetrievePrivateOptions,
  type RetrievePrivateResult,
} from './service/payments.js'
export { BUILT_IN_PLUGINS, type GatewayPlugin } from './service/plugins.js'
export type { CreatedSession, CreateSessionRequest, PatchResult, SessionStatus } from './service/resumable-uploads.js'
export { UPLOAD_SESSION_TTL_MS } from './service/resumable-uploads.js'
export { CID_SIGNATURE_DOMAIN, CID_SIGNATURE_TYPES } from './service/signatures.js'
export type { SignedUploadUrl, SignUploadRequest, UploadGrant } from './service/signed-uploads.js'
export type {
  UploadCallOptions,
  UploadConstraints,
  UploadItem,
  UploadOptions,
  UploadResult,
} from './service/uploads.js'
export { CAR_MIME_TYPE } from './service/uploads.js'
export { LIMITS } from './service/validate.js'
export {
  MAX_QUERY_CHARS,
  VECTORIZE_MAX_BYTES,
  VECTORIZE_MAX_PASSAGES,
  type VectorQueryResult,
} from './service/vectors.js'
export { abortable } from './streams/abortable.js'
export { computeFileCid } from './unixfs/compute-cid.js'
export { CID_VERSIONS, type CidVersion, isCidVersion, kuboImporterOptions } from './unixfs/profiles.js'
export {
  checkEmbedding,
  checkVector,
  embeddingMismatch,
  MAX_VECTOR_QUERY_LIMIT,
  sameEmbedding,
} from './vectors/checks.js'
