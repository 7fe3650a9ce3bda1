import type { Migration } from './index.js'

/**
 * Tenants take turns at the pin-by-CID queue: `pin_tenant_turns` holds the turn each tenant was
 * last served at (a claim passes over tenants served more recently), and the open requests are
 * indexed by tenant, so the claim's per-tenant counts and the queue cap read only open rows.
 */
export const pinTurns: Migration = {
  version: 19,
  name: 'pin-turns',
  statements: [
    `create table pin_tenant_turns (
      tenant_id text primary key,
      turn bigint not null
    )`,
    'drop index pin_requests_claim_idx',
    `create index pin_requests_open_idx on pin_requests (tenant_id, created_at, id) where state in ('queued', 'retrieving')`,
  ],
}
