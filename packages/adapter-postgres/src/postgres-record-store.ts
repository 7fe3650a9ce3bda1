import { optionChecks, type RecordStore } from '@pinfold/interface'
import { postgresApiKeyRecords } from './api-keys.js'
import { postgresBlockRecords } from './blocks.js'
import { postgresDenyRuleRecords } from './deny-rules.js'
import { postgresDeploymentTotals } from './deployment-totals.js'
import { postgresEventRecords } from './events.js'
import { postgresFileRecords } from './files.js'
import { postgresGatewayRecords } from './gateway.js'
import { postgresGroupRecords } from './groups.js'
import { postgresPaymentRecords } from './payments.js'
import { postgresPinRequestRecords } from './pin-requests.js'
import type { SqlClient } from './queryable.js'
import { postgresTenantAccounts } from './tenant-accounts.js'
import { postgresTenantRecords } from './tenants.js'
import { postgresUploadSessionRecords } from './upload-sessions.js'
import { postgresUsageRecords } from './usage.js'
import { type PostgresVectorOptions, postgresVectorRecords } from './vectors.js'
import { postgresWebhookRecords } from './webhooks.js'

export interface PostgresRecordStoreOptions {
  /** From `fromPgPool(pool)` or `fromPGlite(db)`; the schema must be migrated (see `migrate`). */
  client: SqlClient
  /** How group queries choose between exact search and the HNSW index (needs pgvector). */
  vectors?: PostgresVectorOptions | undefined
}

/**
 * A {@link RecordStore} on PostgreSQL, assembled from one part per feature (each in the file of
 * its tables, all on the one `client`). Every contract of the port is enforced by the database
 * (row locks, constraints, single-statement updates), so it holds across server processes.
 *
 * An aborted signal is honoured before a call starts and, for transactions, before COMMIT; a
 * statement already sent runs to completion.
 */
export function createPostgresRecordStore({ client, vectors: vectorOptions }: PostgresRecordStoreOptions): RecordStore {
  optionChecks('@pinfold/adapter-postgres', 'createPostgresRecordStore').require(
    'client',
    typeof client?.query === 'function' && typeof client.transaction === 'function',
    'must come from fromPgPool(pool) or fromPGlite(db)',
  )

  return {
    files: postgresFileRecords(client),
    groups: postgresGroupRecords(client),
    vectors: postgresVectorRecords(client, vectorOptions),
    gateway: postgresGatewayRecords(client),
    blocks: postgresBlockRecords(client),
    payments: postgresPaymentRecords(client),
    uploadSessions: postgresUploadSessionRecords(client),
    apiKeys: postgresApiKeyRecords(client),
    usage: postgresUsageRecords(client),
    pinRequests: postgresPinRequestRecords(client),
    totals: postgresDeploymentTotals(client),
    accounts: postgresTenantAccounts(client),
    tenants: postgresTenantRecords(client),
    events: postgresEventRecords(client),
    denyRules: postgresDenyRuleRecords(client),
    webhooks: postgresWebhookRecords(client),
  }
}
