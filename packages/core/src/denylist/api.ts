/** `FileService.denylist`: the contract (its operations are in `operator-rules.ts`). */
import type { CallOptions } from '@pinfold/interface'
import type { OperatorActor } from '../auth/operator-tokens.js'
import type { RefusalSite } from './content-policy.js'
import type { DenyMatch } from './denylists.js'
import type { DenyQuery } from './query.js'

/** A rule the operator added through the API (the list named {@link OPERATOR_LIST}). */
export interface OperatorRule {
  id: string
  /** The rule as given, in the compact denylist format (`/ipfs/…`, `//…`, `!…`, with hints). */
  rule: string
  /** Its line in the operator's list: rules added later win over earlier ones. */
  line: number
  createdAt: string
}

/** The operator's own list: after every configured list, so its rules (and `!` exceptions) win. */
export const OPERATOR_LIST = 'operator'

/** The options of the operator's writes: who made the change, for the audit log. */
export interface OperatorCallOptions extends CallOptions {
  operator?: OperatorActor | undefined
}

/** A check's options: `gatewayTenant` for a request on that tenant's gateway host (its own list applies too). */
export interface DenyCheckOptions extends CallOptions {
  gatewayTenant?: string | undefined
}

export interface DenylistOperations {
  /**
   * The rule that refuses this CID (and path) or IPNS name right now, if any: a few lookups in
   * memory, synchronous, so it can run per request and per block without a cache in front (the
   * options only keep the service's shape: there is nothing to abort).
   */
  check(query: DenyQuery, options?: DenyCheckOptions): DenyMatch | undefined
  /**
   * `BLOCKED` (with the rule's list, line and status) when a rule refuses the query, reported as a
   * refusal at `site`; for routes that name content before core sees it (a DNSLink host).
   */
  enforce(query: DenyQuery, site: RefusalSite, options?: DenyCheckOptions): void
  /**
   * Adds a rule to the operator's list, stored in the record store with its audit entry; it applies
   * to the next request here and, once the change feed's notice arrives, on every other instance. A
   * line that is not a rule (or more than one line) is `INVALID_INPUT` saying why, and changes nothing.
   */
  addRule(rule: string, options?: OperatorCallOptions): Promise<OperatorRule>
  /** The operator's rules, oldest first. */
  listRules(options?: CallOptions): Promise<OperatorRule[]>
  /** Removes one (`NOT_FOUND` when there is none by that id); what it blocked is served again. */
  removeRule(id: string, options?: OperatorCallOptions): Promise<void>
  /**
   * Loads the operator's rules from the record store (the service starts loading them when it is
   * made; a server awaits this before it serves, so the first request already applies them).
   */
  load(options?: CallOptions): Promise<void>
}
