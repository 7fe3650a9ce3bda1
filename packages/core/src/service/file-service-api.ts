/**
 * `FileService`: what `createFileService` returns, declared as an interface — one sub-interface per
 * operation group, and the types its operations take and give. Callers (the HTTP layer, embedding
 * applications, tests) depend on this shape, never on how core builds it; the service hands out
 * no store, clock or other port.
 *
 * Rules shared by every operation:
 * - The last parameter is call options with an optional `signal` (`CallOptions` or an extension of
 *   it); the signal is passed to every port the operation calls. An aborted signal rejects with
 *   `ABORTED`. Clean-ups after a committed change (deleting released blobs, settling a payment whose
 *   nonce is burned) run to their end without it.
 * - Failures are `PinfoldError`s. Each method names the codes it reports itself; any method may also
 *   reject with what its ports report — `UNAVAILABLE` (a store or other dependency is down),
 *   `STORAGE_DENIED`, `ABORTED` — or `INTERNAL` (a bug).
 * - Inputs are typed as what the operation accepts, and checked again at run time: JavaScript callers
 *   and HTTP bodies hand over untrusted values, and a value of the wrong type or content is
 *   `INVALID_INPUT`.
 * - Tenant-scoped operations take the acting tenant first; a record of another tenant is answered
 *   exactly like a missing one (`NOT_FOUND`).
 * - A feature turned off at construction (see {@link FileService.features}) answers `UNAVAILABLE`
 *   from every operation that needs it, before any I/O.
 */

import type { ApiKeyOperations } from '../api-keys/api.js'
import type { DenylistOperations } from '../denylist/api.js'
import type { HeldContentOperations } from '../denylist/held-content-api.js'
import type { GatewayDenyRuleOperations } from '../denylist/tenant-api.js'
import type { DnslinkOperations } from '../dnslink/api.js'
import type { DomainOperations } from '../domains/api.js'
import type { DownloadLinkOperations } from '../download-links/api.js'
import type { EventOperations } from '../events/api.js'
import type { ExpiryOperations } from '../expiry/api.js'
import type { FileOperations } from '../files/api.js'
import type { GatewayOperations, GatewayTarOperation } from '../gateway/api.js'
import type { GroupOperations } from '../groups/api.js'
import type { HealthOperations } from '../health/api.js'
import type { MaintenanceOperations } from '../maintenance/api.js'
import type { PaymentOperations } from '../payments/api.js'
import type { PinOperations } from '../pins/api.js'
import type { PluginOperations } from '../plugins/api.js'
import type { QuotaOperations } from '../quotas/api.js'
import type { SignatureOperations } from '../signatures/api.js'
import type { SwapOperations } from '../swaps/api.js'
import type { AdminOperations, TenantOperations } from '../tenants/api.js'
import type { TotalsOperations } from '../totals/api.js'
import type { UploadOperations } from '../uploads/api.js'
import type { UsageOperations } from '../usage/api.js'
import type { VectorOperations } from '../vectors/api.js'
import type { WebhookOperations } from '../webhooks/api.js'

/**
 * The domain in one object: every operation the HTTP API offers, one member per feature, each
 * declared beside its operations in `src/<feature>/api.ts`.
 */
export interface FileService {
  files: FileOperations
  groups: GroupOperations
  gateway: GatewayOperations & GatewayTarOperation
  dnslink: DnslinkOperations
  downloadLinks: DownloadLinkOperations
  swaps: SwapOperations
  vectors: VectorOperations
  signatures: SignatureOperations
  plugins: PluginOperations
  expiry: ExpiryOperations
  domains: DomainOperations
  payments: PaymentOperations
  maintenance: MaintenanceOperations
  uploads: UploadOperations
  health: HealthOperations
  apiKeys: ApiKeyOperations
  usage: UsageOperations
  pins: PinOperations
  /** What the whole deployment stores and queues, for operators. */
  totals: TotalsOperations
  /** Each tenant's limits and use: enforced on every ingest path, read by the tenant and the operator. */
  quotas: QuotaOperations
  /** The tenant registry as requests meet it: first-request registration, suspensions, hidden content. */
  tenants: TenantOperations
  /** The operator's admin plane: tenants, suspensions, keys, the pin queue across tenants. */
  admin: AdminOperations
  /** The deny lists in force: checks, and the operator's own rules (for the admin API). */
  denylist: DenylistOperations
  /** Each tenant's own deny rules, applied on its gateway hosts only. */
  gatewayDenyRules: GatewayDenyRuleOperations
  /** Tells tenants (`content.blocked`) when a rule newly blocks content they already hold: lookups and a background scan. */
  heldContent: HeldContentOperations
  /** Signed webhooks: endpoints of tenants and the operator, the outbox and its delivery. */
  webhooks: WebhookOperations
  /** The audit log: each tenant's own events, every tenant's for the operator, the retention's pruning. */
  events: EventOperations
  /** Which optional features are on, decided once at construction (see `FileServiceOptions`). */
  readonly features: Readonly<Record<Feature, boolean>>
}

/**
 * The optional features and what turns each on (`createFileService` options): `signedUploads` and
 * `downloadLinks` need `signingSecret`; `paymentInstructions` needs `paymentSettings`;
 * `paidRetrieval` needs `paymentSettings`, `payments` and `signingSecret`; `vectors` needs
 * `embedder` and `textExtractor`; `apiKeys` (issuing them and accepting their JWTs) needs
 * `signingSecret`; `operators` (the admin API: verifying operator tokens) needs `signingSecret`; `webhooks` needs
 * `webhookTransport`.
 */
export type Feature =
  | 'signedUploads'
  | 'downloadLinks'
  | 'paymentInstructions'
  | 'paidRetrieval'
  | 'vectors'
  | 'apiKeys'
  | 'operators'
  | 'webhooks'
