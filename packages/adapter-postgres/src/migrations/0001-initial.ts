import type { Migration } from './index.js'

/** Contents, groups and files. Needs PostgreSQL 15+ for `on delete set null (group_id)`. */
export const initial: Migration = {
  version: 1,
  name: 'initial',
  statements: [
    `create table contents (
      cid text primary key,
      blob_key text not null,
      size bigint not null check (size >= 0),
      kind text not null
    )`,
    `create table groups (
      id uuid primary key,
      tenant_id text not null,
      network text not null check (network in ('public', 'private')),
      name text not null,
      is_public boolean not null,
      created_at timestamptz not null,
      -- the target of files_group_fk, which keeps a file and its group in one tenant and network
      constraint groups_id_tenant_network_key unique (id, tenant_id, network)
    )`,
    'create index groups_keyset_idx on groups (tenant_id, network, created_at, id)',
    'create index groups_name_prefix_idx on groups (tenant_id, network, name text_pattern_ops)',
    `create table files (
      id uuid primary key,
      tenant_id text not null,
      user_id text not null,
      network text not null check (network in ('public', 'private')),
      name text not null,
      -- restrict: a content row may only go once deleteFile has seen its last reference disappear
      cid text not null constraint files_cid_fk references contents (cid) on delete restrict,
      size bigint not null check (size >= 0),
      number_of_files integer not null,
      mime_type text not null,
      group_id uuid,
      keyvalues jsonb not null default '{}',
      created_at timestamptz not null,
      expires_at timestamptz,
      vectorized boolean not null default false,
      -- deleting a group ungroups its files but must leave tenant_id and network alone
      constraint files_group_fk foreign key (group_id, tenant_id, network)
        references groups (id, tenant_id, network) on delete set null (group_id)
    )`,
    'create index files_keyset_idx on files (tenant_id, network, created_at, id)',
    // cid first: serves the reference check in deleteFile, the duplicate check and the cid filter
    'create index files_cid_idx on files (cid, tenant_id, network)',
    'create index files_name_prefix_idx on files (tenant_id, network, name text_pattern_ops)',
    'create index files_group_idx on files (group_id)',
    'create index files_mime_type_idx on files (tenant_id, network, mime_type)',
    'create index files_keyvalues_idx on files using gin (keyvalues jsonb_path_ops)',
  ],
}
