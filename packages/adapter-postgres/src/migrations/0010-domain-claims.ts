import type { Migration } from './index.js'

/**
 * Domain claims (issue 16 finding 4): a name is unique among active claims only, so a pending
 * claim no longer locks the real owner out; one claim per tenant and name; pending claims lapse
 * (existing ones get the 7 days core now gives a new claim).
 */
export const domainClaims: Migration = {
  version: 10,
  name: 'domain-claims',
  statements: [
    'alter table gateway_domains add column expires_at timestamptz',
    "update gateway_domains set expires_at = created_at + interval '7 days' where status = 'pending_ownership'",
    'alter table gateway_domains drop constraint gateway_domains_domain_key',
    "create unique index gateway_domains_active_key on gateway_domains (domain) where status = 'active'",
    'create unique index gateway_domains_claim_key on gateway_domains (domain, tenant_id)',
  ],
}
