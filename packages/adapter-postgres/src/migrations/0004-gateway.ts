import type { Migration } from './index.js'

/** Hot swaps (with history), CID signatures, custom gateway domains, and the expiry scan's index. */
export const gateway: Migration = {
  version: 4,
  name: 'gateway',
  statements: [
    `create table swaps (
      seq bigserial primary key,
      tenant_id text not null,
      network text not null check (network in ('public', 'private')),
      cid text not null,
      mapped_cid text not null,
      created_at timestamptz not null,
      -- false once replaced or removed; the row stays as history
      current boolean not null default true
    )`,
    // at most one live mapping per CID, tenant and network
    'create unique index swaps_current_key on swaps (tenant_id, network, cid) where current',
    'create index swaps_history_idx on swaps (tenant_id, network, cid, created_at)',
    "create index swaps_public_idx on swaps (cid, created_at) where current and network = 'public'",
    `create table cid_signatures (
      tenant_id text not null,
      network text not null check (network in ('public', 'private')),
      cid text not null,
      signature text not null,
      address text not null,
      created_at timestamptz not null,
      primary key (tenant_id, network, cid)
    )`,
    `create table gateway_domains (
      id uuid primary key,
      tenant_id text not null,
      domain text not null constraint gateway_domains_domain_key unique,
      verification_token text not null,
      status text not null check (status in ('pending_ownership', 'active')),
      created_at timestamptz not null,
      verified_at timestamptz
    )`,
    'create index gateway_domains_tenant_idx on gateway_domains (tenant_id, created_at, id)',
    'create index files_expires_at_idx on files (expires_at, id) where expires_at is not null',
  ],
}
