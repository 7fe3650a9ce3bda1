import type { Migration } from './index.js'

/**
 * The audit log (`records.events`) and the operator's deny rules (`records.denyRules`). An event
 * row is inserted in the transaction of the change it records. `seq` orders the log; `fanned_out`
 * belongs to the webhooks, which mark the events they have turned into deliveries (the partial
 * index finds the rest). The type's shape is a constraint so a malformed event fails its write,
 * and with it the change.
 */
export const events: Migration = {
  version: 24,
  name: 'events',
  statements: [
    `create table events (
      seq bigserial primary key,
      id text unique not null,
      tenant_id text not null,
      type text not null constraint events_type_check check (type ~ '^[a-z][a-z_]*(\\.[a-z][a-z_]*)+$'),
      actor_kind text not null constraint events_actor_kind_check
        check (actor_kind in ('user', 'key', 'operator', 'system')),
      actor_id text not null,
      request_id text,
      target_kind text not null,
      target_id text not null,
      data jsonb not null default '{}',
      at timestamptz not null,
      fanned_out boolean not null default false
    )`,
    'create index events_tenant_idx on events (tenant_id, seq)',
    'create index events_at_idx on events (at)',
    'create index events_unfanned_idx on events (seq) where not fanned_out',
    `create table deny_rules (
      line bigserial primary key,
      id text unique not null,
      rule text not null,
      created_at timestamptz not null
    )`,
  ],
}
