import type { Migration } from './index.js'

/**
 * The tenant registry (`records.tenants`): tenants known by their first authenticated request or
 * created by an operator, and an operator's suspension of one. An index for the pin queue across
 * tenants, which the operator pages by state (the others lead with `tenant_id`).
 */
export const tenants: Migration = {
  version: 23,
  name: 'tenants',
  statements: [
    `create table tenants (
      id text primary key,
      created_at timestamptz not null,
      origin text not null check (origin in ('token', 'admin')),
      suspended_at timestamptz,
      suspension_reason text,
      hide_content boolean not null default false,
      check ((suspended_at is null) = (suspension_reason is null)),
      check (suspended_at is not null or not hide_content)
    )`,
    // the gateway reads the hidden tenants often; they are few
    'create index tenants_hidden_idx on tenants (id) where hide_content',
    'create index pin_requests_queue_idx on pin_requests (state, created_at, id)',
  ],
}
