import type { Migration } from './index.js'

/** x402 payment instructions, the CIDs they price, and claimed payment nonces (replay protection). */
export const payments: Migration = {
  version: 5,
  name: 'payments',
  statements: [
    `create table payment_instructions (
      id uuid primary key,
      tenant_id text not null,
      version integer not null,
      name text not null,
      description text,
      payment_requirements jsonb not null,
      created_at timestamptz not null,
      -- the target of payment_instruction_cids_instruction_fk, which keeps an attachment in its tenant
      constraint payment_instructions_id_tenant_key unique (id, tenant_id)
    )`,
    'create index payment_instructions_keyset_idx on payment_instructions (tenant_id, created_at, id)',
    'create index payment_instructions_name_prefix_idx on payment_instructions (tenant_id, name text_pattern_ops)',
    `create table payment_instruction_cids (
      tenant_id text not null,
      -- "C" collation: CIDs page in plain byte order, as in every other adapter
      cid text collate "C" not null,
      instruction_id uuid not null,
      created_at timestamptz not null,
      -- a CID prices at most one instruction per tenant
      primary key (tenant_id, cid),
      -- restrict: deleting an instruction that still prices CIDs fails (CONFLICT), atomically with attaches
      constraint payment_instruction_cids_instruction_fk foreign key (instruction_id, tenant_id)
        references payment_instructions (id, tenant_id) on delete restrict
    )`,
    'create index payment_instruction_cids_instruction_idx on payment_instruction_cids (instruction_id, created_at, cid)',
    'create index payment_instruction_cids_cid_idx on payment_instruction_cids (cid, created_at, instruction_id)',
    `create table payment_nonces (
      payer text not null,
      nonce text not null,
      expires_at timestamptz not null,
      -- claimPaymentNonce's "exactly one" is this key plus insert … on conflict do nothing
      primary key (payer, nonce)
    )`,
    'create index payment_nonces_expires_idx on payment_nonces (expires_at)',
  ],
}
