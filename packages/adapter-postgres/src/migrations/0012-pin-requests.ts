import type { Migration } from './index.js'

/**
 * The pin-by-CID queue. Workers of every process claim from it with `FOR UPDATE SKIP LOCKED`
 * (`pin_requests_claim_idx` serves the claim's scan), list pages use the tenant index.
 */
export const pinRequests: Migration = {
  version: 12,
  name: 'pin-requests',
  statements: [
    `create table pin_requests (
      id uuid primary key,
      tenant_id text not null,
      user_id text not null,
      cid text not null,
      name text not null,
      group_id text,
      keyvalues jsonb not null default '{}',
      host_nodes text[] not null default '{}',
      state text not null check (state in ('queued', 'retrieving', 'pinned', 'failed')),
      failure text check (failure in ('not_found', 'too_large', 'invalid_object', 'timed_out')),
      reason text,
      created_at timestamptz not null,
      attempts integer not null default 0,
      lease_owner text,
      lease_expires_at timestamptz,
      check ((state = 'failed') = (failure is not null))
    )`,
    'create index pin_requests_tenant_idx on pin_requests (tenant_id, created_at, id)',
    `create index pin_requests_claim_idx on pin_requests (created_at, id) where state in ('queued', 'retrieving')`,
  ],
}
