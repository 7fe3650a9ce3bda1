import type { ApiKeyRecordStore } from './api-key-records.js'
import type { BlockRecordStore } from './block-records.js'
import type { DenyRuleRecordStore } from './deny-rule-records.js'
import type { DeploymentTotalsRecordStore } from './deployment-totals.js'
import type { EventRecordStore } from './event-records.js'
import type { FileRecordStore } from './file-records.js'
import type { GatewayRecordStore } from './gateway-records.js'
import type { GroupRecordStore } from './group-records.js'
import type { PaymentRecordStore } from './payment-records.js'
import type { PinRequestRecordStore } from './pin-request-records.js'
import type { TenantAccountRecordStore } from './tenant-accounts.js'
import type { TenantRecordStore } from './tenant-records.js'
import type { UploadSessionRecordStore } from './upload-session-records.js'
import type { UsageRecordStore } from './usage-records.js'
import type { VectorRecordStore } from './vector-records.js'
import type { WebhookRecordStore } from './webhook-records.js'

/**
 * All metadata, one part per feature (`records.files.createFile`, `records.pinRequests.claimPinRequest`).
 * One implementation backs one deployment; several server processes may share it, so every "exactly
 * one" in the contracts must hold across processes.
 *
 * An adapter builds each part in a file of its own and assembles the store one line per part; a new
 * feature adds its part here, one conformance suite, and one line in each adapter's assembly. The
 * parts share one database (a file's content, blocks and vectors refer to each other), and each
 * method is atomic on its own. Two contracts reach across parts, both about the audit log: a write
 * given `events` (`RecordedOptions`) appends them to `events` in its own transaction, and the
 * webhooks part's fan-out turns `events` entries into deliveries in one. Any other operation that
 * spanned parts (a transaction across features, or a lifecycle such as migrate or close) would
 * belong here at the top level beside the parts; today there is none (adapters migrate and close
 * their connection outside the port).
 */
export interface RecordStore {
  readonly files: FileRecordStore
  readonly groups: GroupRecordStore
  readonly vectors: VectorRecordStore
  readonly gateway: GatewayRecordStore
  readonly blocks: BlockRecordStore
  readonly payments: PaymentRecordStore
  readonly uploadSessions: UploadSessionRecordStore
  readonly apiKeys: ApiKeyRecordStore
  readonly usage: UsageRecordStore
  readonly pinRequests: PinRequestRecordStore
  readonly totals: DeploymentTotalsRecordStore
  readonly accounts: TenantAccountRecordStore
  /** The tenant registry, for the operator (`ports/tenant-records.ts`). */
  readonly tenants: TenantRecordStore
  /**
   * The audit log (`ports/event-records.ts`). The one exception to "no contract spans two parts":
   * every write of the other parts that takes `RecordedOptions` appends its events here in its own
   * atomic step.
   */
  readonly events: EventRecordStore
  /** The operator's deny rules (`ports/deny-rule-records.ts`). */
  readonly denyRules: DenyRuleRecordStore
  /** Webhook endpoints and their outbox (`ports/webhook-records.ts`). */
  readonly webhooks: WebhookRecordStore
}
