import type { RecordStore } from '@pinfold/interface'
import { describeApiKeyRecords } from './api-key-records.js'
import { describeBlockRecords } from './block-records.js'
import { describeBlockedNoticeRecords } from './blocked-notice-records.js'
import { describeDeploymentTotals } from './deployment-totals.js'
import { describeEventRecords } from './event-records.js'
import { describeFileRecords } from './file-records.js'
import { describeGatewayRecords } from './gateway-records.js'
import { describeGroupRecords } from './group-records.js'
import { describePaymentRecords } from './payment-records.js'
import { describePinRequestRecords } from './pin-request-records.js'
import { describeRecordedWrites } from './recorded-writes.js'
import { describeTenantAccounts } from './tenant-accounts.js'
import { describeTenantDenyRuleRecords } from './tenant-deny-rule-records.js'
import { describeTenantRecords } from './tenant-records.js'
import { describeUploadSessionRecords } from './upload-session-records.js'
import { describeUsageRecords } from './usage-records.js'
import { describeVectorRecords } from './vector-records.js'
import { describeWebhookRecords } from './webhook-records.js'

/** Bypasses the adapter to prove what really is (or is not) in the backend. */
export interface RecordProbe {
  /** Every content record the backend holds. */
  countContents(): Promise<number>
  /** Every file record the backend holds, across tenants and networks. */
  countFiles(): Promise<number>
  /** Every passage vector the backend holds, across tenants. */
  countVectors?(): Promise<number>
}

export interface RecordStoreHarness {
  /** A store holding no records. */
  store: RecordStore
  probe?: RecordProbe
  close?(): Promise<void>
  /** Optional features the store supports; the suites for the others assert `UNAVAILABLE`. */
  capabilities?: { vectors?: boolean }
}

/**
 * The RecordStore contract (see `RecordStore` in @pinfold/interface): one suite per part of the
 * store, one line each. Every adapter runs it with a fresh, empty store per test; the optional probe
 * proves what persisted without going through the adapter.
 */
export function describeRecordStore(name: string, create: () => Promise<RecordStoreHarness>): void {
  describeFileRecords(name, create)
  describeGroupRecords(name, create)
  describeVectorRecords(name, create)
  describeGatewayRecords(name, create)
  describeBlockRecords(name, create)
  describePaymentRecords(name, create)
  describeUploadSessionRecords(name, create)
  describeApiKeyRecords(name, create)
  describeUsageRecords(name, create)
  describePinRequestRecords(name, create)
  describeDeploymentTotals(name, create)
  describeTenantAccounts(name, create)
  describeTenantRecords(name, create)
  describeEventRecords(name, create)
  describeWebhookRecords(name, create)
  describeTenantDenyRuleRecords(name, create)
  describeBlockedNoticeRecords(name, create)
  describeRecordedWrites(name, create)
}
