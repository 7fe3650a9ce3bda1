import type { CallOptions } from '../call-options.js'
import type { RecordedOptions } from './event-records.js'

/** A rule the operator added to its own deny list, as stored. */
export interface DenyRuleRecord {
  id: string
  /** The rule's line in the compact denylist format, as given (trimmed). */
  rule: string
  /** Assigned by the store on add, increasing and never reused: later rules win over earlier ones. */
  line: number
  createdAt: Date
}

/**
 * A rule a tenant added to its own gateways' deny list: it applies only to requests arriving on
 * that tenant's gateway hosts. Its lines are numbered per tenant, apart from the operator's.
 */
export interface TenantDenyRuleRecord extends DenyRuleRecord {
  tenantId: string
}

/**
 * The operator's deny rules and the tenants' own, shared by every instance on one record store
 * (each keeps them in memory for matching and reloads them when the change feed says `deny-rules`).
 */
export interface DenyRuleRecordStore {
  /** Stores the rule with the next line number and answers it; a reused id is `CONFLICT`. */
  addDenyRule(rule: Omit<DenyRuleRecord, 'line'>, options?: RecordedOptions): Promise<DenyRuleRecord>
  /** Every rule, by line ascending. */
  listDenyRules(options?: CallOptions): Promise<DenyRuleRecord[]>
  /** Removes one; `false` (and nothing appended) when no rule has this id. */
  removeDenyRule(id: string, options?: RecordedOptions): Promise<boolean>
  /** Stores a tenant's rule with its next line number (counted per tenant, never reused); a reused id is `CONFLICT`. */
  addTenantDenyRule(rule: Omit<TenantDenyRuleRecord, 'line'>, options?: RecordedOptions): Promise<TenantDenyRuleRecord>
  /** One tenant's rules by line ascending, or (`undefined`) every tenant's, by tenant then line. */
  listTenantDenyRules(tenantId: string | undefined, options?: CallOptions): Promise<TenantDenyRuleRecord[]>
  /** Removes one of this tenant's rules; `false` (and nothing appended) when it has none with this id. */
  removeTenantDenyRule(tenantId: string, id: string, options?: RecordedOptions): Promise<boolean>
}
