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
 * The operator's deny rules, shared by every instance on one record store (each keeps them in
 * memory for matching and reloads them when the change feed says `deny-rules`).
 */
export interface DenyRuleRecordStore {
  /** Stores the rule with the next line number and answers it; a reused id is `CONFLICT`. */
  addDenyRule(rule: Omit<DenyRuleRecord, 'line'>, options?: RecordedOptions): Promise<DenyRuleRecord>
  /** Every rule, by line ascending. */
  listDenyRules(options?: CallOptions): Promise<DenyRuleRecord[]>
  /** Removes one; `false` (and nothing appended) when no rule has this id. */
  removeDenyRule(id: string, options?: RecordedOptions): Promise<boolean>
}
