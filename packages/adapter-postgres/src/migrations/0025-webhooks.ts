import type { Migration } from './index.js'

/**
 * Webhook endpoints (`tenant_id` null: the operator's, which receive every tenant's events) and
 * the outbox: one row per (endpoint, event), unique, so a fan-out run twice cannot queue an event
 * twice. A row carries the event it delivers (the journal's retention may drop the event first),
 * its attempts and its lease. Owners take turns at the workers through `webhook_turns` (`''` is
 * the operator), as tenants do at the pin queue.
 */
export const webhooks: Migration = {
  version: 25,
  name: 'webhooks',
  statements: [
    `create table webhook_endpoints (
      id uuid primary key,
      tenant_id text,
      url text not null,
      event_types text[] not null,
      description text not null,
      secret text not null,
      enabled boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    'create index webhook_endpoints_owner_idx on webhook_endpoints (tenant_id, created_at, id)',
    `create table webhook_deliveries (
      id uuid primary key,
      endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
      tenant_id text,
      event_id text not null,
      event jsonb not null,
      status text not null check (status in ('pending', 'delivering', 'delivered', 'failed')),
      attempts integer not null,
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      last_status_code integer,
      last_error text,
      lease_owner text,
      lease_expires_at timestamptz,
      created_at timestamptz not null,
      unique (endpoint_id, event_id),
      check ((status = 'delivering') = (lease_owner is not null))
    )`,
    'create index webhook_deliveries_list_idx on webhook_deliveries (endpoint_id, created_at, id)',
    `create index webhook_deliveries_ended_idx on webhook_deliveries (last_attempt_at) where status in ('delivered', 'failed')`,
    `create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at, id) where status in ('pending', 'delivering')`,
    `create table webhook_turns (
      owner text primary key,
      turn bigint not null
    )`,
  ],
}
