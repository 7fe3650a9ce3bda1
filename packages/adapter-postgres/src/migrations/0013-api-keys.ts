import type { Migration } from './index.js'

/** API keys (Pinata's `/v3/pinata/keys`): hashed secrets, revocation and counted uses. */
export const apiKeys: Migration = {
  version: 13,
  name: 'api-keys',
  statements: [
    `create table api_keys (
      id text primary key,
      tenant_id text not null,
      user_id text not null,
      name text not null,
      -- the public half, looked up by the legacy pinata_api_key header
      key text not null unique,
      -- a hash of the secret; the secret itself is never stored
      secret_hash text not null,
      scopes text[] not null,
      permissions jsonb not null,
      max_uses integer check (max_uses > 0),
      -- useApiKey's "exactly M of N" is one conditional update of this column
      uses integer not null default 0 check (max_uses is null or uses <= max_uses),
      revoked boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    'create index api_keys_listing_idx on api_keys (tenant_id, created_at desc, id desc)',
  ],
}
