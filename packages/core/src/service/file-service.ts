import type { Tracer } from '@opentelemetry/api'
import type {
  BlobStore,
  BlockFetcher,
  Clock,
  Embedder,
  IdSource,
  PaymentSettings,
  PaymentVerifier,
  RecordStore,
  TenantLimits,
  TextExtractor,
  TxtResolver,
  WebhookTransport,
} from '@pinfold/interface'
import { createApiKeyOperations } from '../api-keys/api-keys.js'
import { createTrustedKeys } from '../api-keys/trusted-keys.js'
import type { ContentBlockedEvent } from '../denylist/content-policy.js'
import type { Denylists } from '../denylist/denylists.js'
import { createHeldContentScan } from '../denylist/held-content-scan.js'
import { createDenylistOperations } from '../denylist/operator-rules.js'
import { createGatewayDenyRuleOperations } from '../denylist/tenant-rules.js'
import { createDnslinkOperations } from '../dnslink/dnslink.js'
import { createDomainOperations } from '../domains/domains.js'
import { createDownloadLinkOperations } from '../download-links/download-links.js'
import { recordingBlockedIngest } from '../events/content-blocked.js'
import { createEventOperations } from '../events/events.js'
import { recordingQuotaRefusals } from '../events/quota-reached.js'
import { createExpiryOperations } from '../expiry/expiry.js'
import { createFileOperations } from '../files/files.js'
import { createFileUpload } from '../files/upload.js'
import { createGatewayOperations } from '../gateway/gateway.js'
import type { GatewayCacheSettings } from '../gateway/read-cache.js'
import { tarArchive } from '../gateway/tar.js'
import { createGroupOperations } from '../groups/groups.js'
import { createHealthOperations } from '../health/health.js'
import { createMaintenanceOperations } from '../maintenance/maintenance.js'
import { createPaymentOperations } from '../payments/payments.js'
import { createPinOperations } from '../pins/pins.js'
import type { GatewayPlugin } from '../plugins/api.js'
import { createPluginOperations } from '../plugins/plugins.js'
import { createQuotaOperations } from '../quotas/quotas.js'
import { createSignatureOperations } from '../signatures/signatures.js'
import { createSwapOperations } from '../swaps/swaps.js'
import { createAdminOperations } from '../tenants/admin.js'
import { createTenantDirectory } from '../tenants/tenant-directory.js'
import { createTotalsOperations } from '../totals/totals.js'
import { traced, tracedParts } from '../tracing/traced.js'
import { createUploadOperations } from '../uploads/uploads.js'
import { createUsageOperations } from '../usage/usage.js'
import { createVectorOperations } from '../vectors/vectors.js'
import type { WebhookSettings } from '../webhooks/settings.js'
import { createWebhookOperations } from '../webhooks/webhooks.js'
import type { PinSettings, ResumableUploadSettings, ServiceContext } from './context.js'
import type { FileService } from './file-service-api.js'
import { checkServiceOptions, type UploadHashing } from './service-options.js'

export type { CompletionStep, PinSettings, ResumableUploadSettings } from './context.js'
export type { UploadHashing } from './service-options.js'
export { DEFAULT_COMPLETION_LEASE_MS, systemClock, uuidIds } from './service-options.js'

export interface FileServiceOptions {
  records: RecordStore
  blobs: BlobStore
  clock?: Clock | undefined
  ids?: IdSource | undefined
  /** Largest accepted upload in bytes; default 25 GiB (Pinata's limit). */
  maxUploadBytes?: number | undefined
  /**
   * Where a single-request upload's SHA-256 runs (resumable and CAR uploads keep theirs):
   * `main-thread` as the bytes pass; `thread-pool` on libuv's threads, so one upload can go faster
   * than one thread can hash, where cores are free for them (on a machine whose cores are busy it
   * only costs copies); `auto` (default) picks `thread-pool` on machines with at least 4 cores
   * (`availableParallelism()`).
   */
  uploadHashing?: UploadHashing | undefined
  /** Secret (≥ 32 bytes) for signed upload URLs and download links; without it those features refuse (503). */
  signingSecret?: string | Uint8Array | undefined
  /** x402 verifier for `GET /v1/retrieve/private/{cid}` (`@pinfold/x402`); without it paid retrieval refuses. */
  payments?: PaymentVerifier | undefined
  /** Networks, defaults and link lifetime of pay-per-request; without them payment instructions refuse. */
  paymentSettings?: PaymentSettings | undefined
  /** The gateway plugin marketplace's catalog; default: the plugins Pinfold implements. */
  gatewayPlugins?: readonly GatewayPlugin[] | undefined
  /**
   * TXT lookups for custom-domain verification and DNSLink (`node:dns/promises` `resolveTxt`
   * shape; a `ttlSeconds` on the answer sets how long DNSLink keeps it); without one, verifying a
   * domain and DNSLink are `UNAVAILABLE`. `pinfold serve` passes a DNS client that reads TTLs.
   */
  resolveTxt?: TxtResolver | undefined
  /**
   * The domain dedicated gateways live under (`PINFOLD_GATEWAY_DOMAIN`): a tenant claims
   * `{name}.{gatewayDomain}` and it is active at once, with no TXT record, since the deployment
   * owns the domain (its DNS sends `*.{gatewayDomain}` here). Without it, only custom domains.
   */
  gatewayDomain?: string | undefined
  /** Turns text into vectors for semantic search (`@pinfold/embedders`); without it vectorize/query refuse. */
  embedder?: Embedder | undefined
  /** Reads a file's text for vectorizing: `extractPassages` from `@pinfold/text-extract`. */
  textExtractor?: TextExtractor | undefined
  /**
   * Where pin-by-CID jobs fetch blocks not held here (trustless gateways, bitswap), asked in this
   * order for each block; default none, so only CIDs whose public content is held here can be pinned.
   */
  blockFetchers?: readonly BlockFetcher[] | undefined
  /** Bounds of pin-by-CID jobs: size (default `maxUploadBytes`), blocks, time, concurrency, lease. */
  pinning?: Partial<PinSettings> | undefined
  /**
   * Distinct analytics rows (CID × file name × status) kept per tenant and UTC day; requests past
   * them are counted in one row whose CID is `other`. Default 10 000: rows are what a tenant's
   * gateway traffic costs in storage, whoever sends it.
   */
  maxUsageRowsPerDay?: number | undefined
  /** How resumable uploads complete: the completion claim's lease (default 30 s), a crash-test checkpoint. */
  resumableUploads?: Partial<ResumableUploadSettings> | undefined
  /**
   * The gateway's read cache (`gateway/read-cache.ts`): memory in bytes (default 64 MiB; 0 turns it
   * off), the longest a changeable fact is kept (default 60 s), the largest block or file kept whole
   * (default 64 KiB), and, where several instances share the record store, the feed on which they
   * announce changes to each other (`createPostgresChangeFeed`); without one, another instance's
   * delete is seen here after at most `ttlMs`.
   */
  gatewayCache?: Partial<GatewayCacheSettings> | undefined
  /**
   * Every tenant's limits unless overridden per tenant (`quotas.setTenantLimits`): storage bytes,
   * files, bytes per file, open pin requests, requests per minute, vectorized files. Each a
   * non-negative integer or `null`; default: no limit (the pin queue keeps `pinning.maxQueuedPerTenant`).
   */
  quotas?: Partial<TenantLimits> | undefined
  /**
   * OpenTelemetry tracing: every service operation (`files.upload`) and every store call
   * (`records.files.createFile`, `blobs.put`) in a span, children of the span active when they are
   * called. Default none: nothing is wrapped (no cost at all).
   */
  tracer?: Tracer | undefined
  /**
   * The deny lists (compact denylist format) content is refused by: the gateways, CARs block by
   * block, bitswap, the routing endpoint and announcements, pin by CID. The caller keeps them
   * current (the server reads files and subscriptions into them); checks read them per request.
   * Default: none, nothing is refused.
   */
  denylists?: Denylists | undefined
  /**
   * Whether a tenant's own reads of its files (private downloads and signed links) are refused by
   * the deny lists too; default `true` (a takedown reaches every copy). Public reads always are.
   */
  denylistPrivateReads?: boolean | undefined
  /**
   * Holders of a blocked root read per page (default 1,000): an operator rule added over held
   * content tells the first page's tenants in its own transaction, and the held-content scan tells
   * the rest a page at a time, so neither holds them all nor writes a transaction growing with them.
   */
  denylistHolderPageSize?: number | undefined
  /** Told of every refusal (list, line, where): the server logs and counts them. */
  onContentBlocked?: ((event: ContentBlockedEvent) => void) | undefined
  /**
   * How webhook deliveries leave (resolve the host, check every address, connect to the checked
   * one): `pinfold serve` passes one on node:http. Without it, webhooks are `UNAVAILABLE`.
   */
  webhookTransport?: WebhookTransport | undefined
  /** Bounds of webhook deliveries: timeout, response cap, attempts, backoff, lease, fairness caps. */
  webhooks?: Partial<WebhookSettings> | undefined
}

/**
 * The domain in one object: every operation the HTTP API offers, as plain async functions taking
 * the acting tenant first (see {@link FileService}). Every option is checked here, once: a bad one
 * throws `INVALID_INPUT` now, never from a later call. Embed it directly, or serve it with
 * `@pinfold/http-node`.
 */
export function createFileService(options: FileServiceOptions): FileService {
  const ctx: ServiceContext = checkServiceOptions(options)
  const { tracer } = options
  if (tracer) {
    ctx.records = tracedParts(ctx.records, 'records', tracer)
    ctx.blobs = traced(ctx.blobs, 'blobs', tracer)
  }
  const service = createOperations(ctx, options)
  return tracer ? tracedService(service, tracer) : service
}

/** Each operation group traced as `{group}.{operation}` (`features` is a record, left as it is). */
function tracedService(service: FileService, tracer: Tracer): FileService {
  const { features, ...groups } = service
  return { ...tracedParts(groups, '', tracer), features } as FileService
}

function createOperations(ctx: ServiceContext, options: FileServiceOptions): FileService {
  // files.upload's pipeline, which a completed resumable upload records its file through
  const upload = createFileUpload(ctx)
  const downloadLinks = createDownloadLinkOperations(ctx)
  const tenants = createTenantDirectory(ctx)
  const quotas = createQuotaOperations(ctx)
  const trustedKeys = createTrustedKeys(ctx.changes)
  const gateway = createGatewayOperations({
    ...ctx,
    hiddenTenants: tenants.hiddenTenants,
    hiddenTenantsVersion: tenants.hiddenTenantsVersion,
  })
  // the operations a quota refuses: each refusal is recorded in the audit log (bounded)
  const quotaRecorded = recordingQuotaRefusals(ctx)
  // a pin of a blocked CID is refused, and recorded as content.blocked for the tenant that asked
  const blockedRecorded = recordingBlockedIngest(ctx, 'pin')
  // told of each operator rule added (here or on another instance) and of the configured lists' changes
  const heldContent = createHeldContentScan(ctx)
  return {
    files: quotaRecorded(createFileOperations({ ...ctx, upload })),
    groups: createGroupOperations(ctx),
    gateway: { ...gateway, tar: (root, path, tarOptions) => tarArchive(gateway, root, path, tarOptions) },
    downloadLinks,
    swaps: createSwapOperations(ctx),
    vectors: quotaRecorded(createVectorOperations(ctx)),
    signatures: createSignatureOperations(ctx),
    plugins: createPluginOperations({ gatewayPlugins: options.gatewayPlugins }),
    expiry: createExpiryOperations(ctx),
    domains: createDomainOperations({
      ...ctx,
      resolveTxt: options.resolveTxt,
      gatewayDomain: options.gatewayDomain?.toLowerCase(),
    }),
    dnslink: createDnslinkOperations({ resolveTxt: options.resolveTxt, clock: ctx.clock }),
    payments: createPaymentOperations({ ...ctx, downloadLinks }),
    maintenance: createMaintenanceOperations(ctx),
    uploads: quotaRecorded(createUploadOperations({ ...ctx, upload, admit: tenants.admit })),
    health: createHealthOperations(ctx),
    apiKeys: createApiKeyOperations({ ...ctx, trustedKeys }),
    usage: createUsageOperations(ctx),
    pins: blockedRecorded(quotaRecorded(createPinOperations({ ...ctx, suspendedTenants: tenants.suspendedTenants }))),
    totals: createTotalsOperations(ctx),
    quotas,
    tenants: { admit: tenants.admit, hiddenTenants: tenants.hiddenTenants, suspendedTenants: tenants.suspendedTenants },
    admin: createAdminOperations({ ...ctx, directory: tenants, quotas, trustedKeys }),
    denylist: createDenylistOperations(ctx, heldContent),
    heldContent,
    gatewayDenyRules: createGatewayDenyRuleOperations(ctx),
    webhooks: createWebhookOperations(ctx),
    events: createEventOperations(ctx),
    features: ctx.features.enabled,
  }
}
