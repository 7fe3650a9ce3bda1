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
export * from './errors.js'
export { detectMimeType } from './mime.js'
export * from './model.js'
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type PageQuery } from './pagination.js'
export type * from './ports.js'
export { BLOB_KEY_PATTERN } from './ports.js'
export {
  createFileService,
  type FileService,
  type FileServiceOptions,
  systemClock,
  uuidIds,
} from './service/file-service.js'
export type { FileListQuery, FileUpdate } from './service/files.js'
export type { GroupListQuery } from './service/groups.js'
export type { UploadItem, UploadOptions, UploadResult } from './service/uploads.js'
export { LIMITS } from './service/validate.js'
export { abortable } from './streams/abortable.js'
export { computeFileCid } from './unixfs/compute-cid.js'
export { CID_VERSIONS, type CidVersion, isCidVersion, kuboImporterOptions } from './unixfs/profiles.js'
