import type { CallOptions } from '../call-options.js'
import type { NewEvent, RecordedOptions } from './event-records.js'

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
 * A tenant told that a deny rule blocks content it holds (`content.blocked`): at most one per
 * tenant, CID and rule (the rule's list and line), ever, whichever instance or run finds it.
 */
export interface BlockedNotice {
  tenantId: string
  /** The held root's CID, as its files name it. */
  cid: string
  list: string
  line: number
  /** The audit-log entry that tells it (appended only when the notice is new). */
  event: NewEvent
}

/** `addDenyRule`'s options: its audit entries, and the tenants it tells in the same step. */
export interface AddDenyRuleOptions extends RecordedOptions {
  /**
   * `content.blocked` notices the rule owes tenants holding content it blocks, recorded on the line
   * the store gives the rule (as `recordBlockedNotices` records them: a duplicate is skipped with
   * its event) in the rule's own atomic step, so a later look for its holders finds them told.
   */
  blockedNotices?: readonly Omit<BlockedNotice, 'line'>[] | undefined
}

/**
 * Where the background scan of held roots against the deny lists stands, kept so a restart
 * resumes it (or skips it when the lists it finished with are the lists in force).
 */
export interface BlockedScanState {
  /** Names the rules the scan checks against (lists, sizes, digests): another value means other rules. */
  fingerprint: string
  /** The last root checked, in `listHeldRoots` order; `null` once every root was. */
  cursor: string | null
}

/**
 * The operator's deny rules and the tenants' own, shared by every instance on one record store
 * (each keeps them in memory for matching and reloads them when the change feed says `deny-rules`).
 */
export interface DenyRuleRecordStore {
  /** Stores the rule with the next line number and answers it; a reused id is `CONFLICT` (nothing written). */
  addDenyRule(rule: Omit<DenyRuleRecord, 'line'>, options?: AddDenyRuleOptions): Promise<DenyRuleRecord>
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
  /**
   * Records each notice not recorded before (by tenant, CID, list and line) and appends its event,
   * both in one atomic step; a notice recorded earlier (by this or any instance) is skipped with its
   * event. Answers the notices newly recorded.
   */
  recordBlockedNotices(notices: readonly BlockedNotice[], options?: CallOptions): Promise<BlockedNotice[]>
  /** The held-roots scan's saved position, if one was ever saved. */
  getBlockedScan(options?: CallOptions): Promise<BlockedScanState | undefined>
  /** Saves the held-roots scan's position (the last save wins). */
  putBlockedScan(state: BlockedScanState, options?: CallOptions): Promise<void>
}
