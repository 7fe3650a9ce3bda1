/**
 * Pinfold's domain: uploads with Kubo-identical CIDs, files, groups and auth, behind the ports of
 * `@pinfold/interface`.
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
// Embedders get the domain's types and errors from the same import (as `helia` re-exports `@helia/interface`).
export * from '@pinfold/interface'
export type * from './api-keys/api.js'
export { API_KEY_PAGE_SIZE } from './api-keys/api-keys.js'
export { API_KEY_CACHE_MS } from './api-keys/trusted-keys.js'
export { API_KEY_CLAIM } from './auth/api-key-tokens.js'
export {
  createOperatorTokens,
  mintOperatorToken,
  OPERATOR_SCOPE,
  type OperatorActor,
  type OperatorTokenOptions,
  type OperatorTokens,
} from './auth/operator-tokens.js'
export { allows, SCOPES, type Scope } from './auth/scopes.js'
export * from './auth/tokens.js'
export { createUrlSigner, SIGNATURE_PARAM, type UrlSigner } from './auth/url-signing.js'
export type { KeyValueInput } from './common/api.js'
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type PageQuery } from './common/pagination.js'
export { parseCid } from './common/parse-cid.js'
export { createTokenBuckets, type TokenBucketRule } from './common/token-buckets.js'
export { LIMITS } from './common/validate.js'
export { indexKeyOf, PLACEHOLDER_ROOT } from './content/dag/car-blob.js'
export { computeFileCid } from './content/unixfs/compute-cid.js'
export { kuboImporterOptions } from './content/unixfs/profiles.js'
export { parseAnyCid } from './denylist/any-cid.js'
export type * from './denylist/api.js'
export { OPERATOR_LIST } from './denylist/api.js'
export type { ContentBlockedEvent, ContentPolicy, RefusalSite } from './denylist/content-policy.js'
export { Denylists, type DenyMatch } from './denylist/denylists.js'
export type * from './denylist/held-content-api.js'
export { type IndexedRule, ListIndex } from './denylist/list-index.js'
export { ListReader } from './denylist/list-reader.js'
export { parseRuleLine } from './denylist/parse-rule.js'
export type { DenyQuery } from './denylist/query.js'
export type { DenyRule, ListHeader, ListProblem, PathSpec, RuleTarget } from './denylist/rule.js'
export type * from './denylist/tenant-api.js'
export { MAX_TENANT_RULES, TENANT_LIST } from './denylist/tenant-api.js'
export type * from './dnslink/api.js'
export type * from './domains/api.js'
export { normaliseDomain, PENDING_DOMAIN_TTL_MS, VERIFICATION_PREFIX } from './domains/domains.js'
export type * from './download-links/api.js'
export { DOWNLOAD_LINK_ALGORITHM, MAX_LINK_SECONDS } from './download-links/download-links.js'
export type * from './events/api.js'
export { EVENT_PAGE_MAX } from './events/api.js'
export { QUOTA_EVENT_INTERVAL_MS } from './events/quota-reached.js'
export type * from './expiry/api.js'
export type * from './files/api.js'
export { CAR_MIME_TYPE } from './files/upload-staging.js'
export type * from './gateway/api.js'
export { type DagScope, encodeCar } from './gateway/car-stream.js'
export { type ContentDag, openContentDag } from './gateway/content-dag.js'
export { dagPreviewText } from './gateway/dag-preview.js'
export { cidOfDnsLabel, DNS_LABEL_LIMIT, dnsLabel } from './gateway/dns-label.js'
export { resolveEntityBytes } from './gateway/gateway.js'
export {
  MAX_REDIRECT_RULES,
  MAX_REDIRECTS_FILE_BYTES,
  matchRedirect,
  parseRedirectsFile,
  type RedirectMatch,
  type RedirectRule,
} from './gateway/redirects-file.js'
export type * from './groups/api.js'
export type * from './health/api.js'
export type * from './maintenance/api.js'
export { DIRECTORY_MIME_TYPE } from './mime/allowed-mime-types.js'
export { detectMimeType, mimeTypeFromName } from './mime/mime.js'
export { sniffedTypeOf } from './mime/sniffed-types.js'
export type * from './payments/api.js'
export { DEFAULT_RETRIEVAL_AMOUNT, NONCE_ALREADY_USED } from './payments/payments.js'
export type * from './pins/api.js'
export type * from './plugins/api.js'
export { BUILT_IN_PLUGINS } from './plugins/plugins.js'
export type * from './quotas/api.js'
export { REQUEST_COUNT_FLUSH_MS } from './quotas/request-rate.js'
export { gatewayMultiaddr, gatewayProviderId, TRANSPORT_IPFS_GATEWAY_HTTP } from './routing/http-provider.js'
export {
  type CompletionStep,
  createFileService,
  DEFAULT_COMPLETION_LEASE_MS,
  type FileServiceOptions,
  type ResumableUploadSettings,
  systemClock,
  type UploadHashing,
  uuidIds,
} from './service/file-service.js'
export type * from './service/file-service-api.js'
export type * from './signatures/api.js'
export { CID_SIGNATURE_DOMAIN, CID_SIGNATURE_TYPES } from './signatures/signatures.js'
export type * from './swaps/api.js'
export { ADMIN_PAGE_DEFAULT, ADMIN_PAGE_MAX } from './tenants/admin.js'
export type * from './tenants/api.js'
export { TENANT_CACHE_MS } from './tenants/tenant-directory.js'
export type * from './totals/api.js'
export type * from './uploads/api.js'
export { UPLOAD_SESSION_TTL_MS } from './uploads/resumable.js'
export type * from './usage/api.js'
export { USAGE_BUFFER_MAX } from './usage/usage.js'
export type * from './vectors/api.js'
export { MAX_QUERY_CHARS, VECTORIZE_MAX_BYTES, VECTORIZE_MAX_PASSAGES } from './vectors/vectors.js'
export type * from './webhooks/api.js'
export { retryDelayMs, type WebhookBackoff } from './webhooks/backoff.js'
export { DEFAULT_WEBHOOK_SETTINGS, type WebhookAttemptResult, type WebhookSettings } from './webhooks/settings.js'
