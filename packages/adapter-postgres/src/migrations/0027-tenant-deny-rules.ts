import type { Migration } from './index.js'

/**
 * Tenants' own deny rules (`records.denyRules.*TenantDenyRule*`), applied on that tenant's
 * gateway hosts only. Each tenant's lines count from 1 on their own (`tenant_deny_rule_lines`
 * holds the last one given, bumped in the add's transaction), so a tenant's rules never reveal how
 * many other tenants have, and a removed rule's line is never given again.
 */
export const tenantDenyRules: Migration = {
  version: 27,
  name: 'tenant-deny-rules',
  statements: [
    `create table tenant_deny_rules (
      tenant_id text not null,
      line bigint not null,
      id text unique not null,
      rule text not null,
      created_at timestamptz not null,
      primary key (tenant_id, line)
    )`,
    `create table tenant_deny_rule_lines (
      tenant_id text primary key,
      last_line bigint not null
    )`,
  ],
}
