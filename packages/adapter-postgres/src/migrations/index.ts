import { initial } from './0001-initial.js'
import { contentLayout } from './0002-content-layout.js'
import { uploads } from './0003-uploads.js'
import { gateway } from './0004-gateway.js'
import { payments } from './0005-payments.js'
import { vectors } from './0006-vectors.js'
import { blobKeyIndex } from './0007-blob-key-index.js'
import { listIndexes } from './0008-list-indexes.js'
import { blockIndex } from './0009-block-index.js'
import { domainClaims } from './0010-domain-claims.js'
import { uploadCompletionClaim } from './0011-upload-completion-claim.js'
import { pinRequests } from './0012-pin-requests.js'
import { apiKeys } from './0013-api-keys.js'
import { gatewayUsage } from './0014-gateway-usage.js'
import { stagedUploads } from './0017-staged-uploads.js'
import { uploadCompletionLease } from './0018-upload-completion-lease.js'
import { pinTurns } from './0019-pin-turns.js'
import { apiKeyParents } from './0020-api-key-parents.js'
import { pinningService } from './0021-pinning-service.js'
import { tenantAccounts } from './0022-tenant-accounts.js'
import { tenants } from './0023-tenants.js'
import { events } from './0024-events.js'
import { webhooks } from './0025-webhooks.js'
import { requestCounts } from './0026-request-counts.js'
import { tenantDenyRules } from './0027-tenant-deny-rules.js'
import { webhookEndpointState } from './0028-webhook-endpoint-state.js'
import { blockedNotices } from './0030-blocked-notices.js'

/**
 * One schema change. Statements run one at a time (PGlite's extended protocol takes one statement
 * per query), all inside the migration's transaction.
 */
export interface Migration {
  /** Applied in ascending order; never renumber or edit a released migration, add a new one. */
  version: number
  name: string
  statements: string[]
}

export const MIGRATIONS: readonly Migration[] = [
  initial,
  contentLayout,
  uploads,
  gateway,
  payments,
  vectors,
  blobKeyIndex,
  listIndexes,
  blockIndex,
  domainClaims,
  uploadCompletionClaim,
  pinRequests,
  apiKeys,
  gatewayUsage,
  stagedUploads,
  uploadCompletionLease,
  pinTurns,
  apiKeyParents,
  pinningService,
  tenantAccounts,
  tenants,
  events,
  webhooks,
  requestCounts,
  tenantDenyRules,
  webhookEndpointState,
  blockedNotices,
]
