import type { PinRequestRecord, RecordStore } from '@pinfold/interface'
import { memoryTenantAccounts } from './memory-accounts.js'
import { memoryApiKeyRecords } from './memory-api-keys.js'
import { memoryBlockRecords } from './memory-blocks.js'
import { memoryDenyRuleRecords } from './memory-deny-rules.js'
import { memoryDeploymentTotals } from './memory-deployment-totals.js'
import { memoryEventRecords } from './memory-events.js'
import { memoryFileRecords } from './memory-files.js'
import { memoryGatewayRecords } from './memory-gateway.js'
import { memoryGroupRecords } from './memory-groups.js'
import { memoryPaymentRecords } from './memory-payments.js'
import { memoryPinRequestRecords } from './memory-pin-requests.js'
import { createMemoryState } from './memory-state.js'
import { memoryTenantRecords } from './memory-tenants.js'
import { memoryUploadSessionRecords } from './memory-upload-sessions.js'
import { memoryUsageRecords } from './memory-usage.js'
import { memoryVectorRecords } from './memory-vectors.js'
import { memoryWebhookRecords } from './memory-webhooks.js'

/**
 * Every record in Maps, assembled from one part per feature (`memory-<feature>.ts`); the parts that
 * see each other's records (a deleted file drops its blocks, a group's files) share one state.
 * Each method does all its checks and writes synchronously after its first await point, so
 * JavaScript's run-to-completion gives the port's "exactly one" race contracts without locks — the same guarantees Postgres gets from row locks and unique constraints.
 * Records are copied in and out so callers can never mutate stored state by accident.
 */
export function createMemoryRecordStore(): RecordStore {
  const state = createMemoryState()
  const pinRequests = new Map<string, PinRequestRecord>()
  return {
    files: memoryFileRecords(state),
    groups: memoryGroupRecords(state),
    vectors: memoryVectorRecords(state),
    gateway: memoryGatewayRecords(state),
    blocks: memoryBlockRecords(state),
    payments: memoryPaymentRecords(state),
    uploadSessions: memoryUploadSessionRecords(),
    apiKeys: memoryApiKeyRecords(state),
    usage: memoryUsageRecords(),
    pinRequests: memoryPinRequestRecords(state, pinRequests),
    totals: memoryDeploymentTotals(state, pinRequests),
    accounts: memoryTenantAccounts(state),
    tenants: memoryTenantRecords(state),
    events: memoryEventRecords(state),
    denyRules: memoryDenyRuleRecords(state),
    webhooks: memoryWebhookRecords(state),
  }
}
