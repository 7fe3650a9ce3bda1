/** `FileService.gatewayDenyRules`: the contract (its operations are in `tenant-rules.ts`). */
import type { Actor, CallOptions } from '@pinfold/interface'

/** The name a tenant's own list has in refusals, logs and metrics (one label, whatever the tenant). */
export const TENANT_LIST = 'tenant'

/** The most rules one tenant keeps: every instance holds every tenant's rules in memory. */
export const MAX_TENANT_RULES = 10_000

/** A rule a tenant added to its own gateways' deny list. */
export interface TenantDenyRule {
  id: string
  /** The rule as given, in the compact denylist format (`/ipfs/…`, `//…`, `/ipns/…`, `!…`, with hints). */
  rule: string
  /** Its line in the tenant's list (counted per tenant): later rules win over earlier ones. */
  line: number
  createdAt: string
}

/**
 * A tenant's own deny list, applied only to requests arriving on that tenant's gateway hosts (its
 * verified custom domains and dedicated `{name}.{gatewayDomain}` names), after the operator's lists,
 * which apply everywhere: it can refuse more on its gateways, and its `!` rules only undo its own
 * earlier rules (never the operator's). It never touches another tenant's gateways, nor the shared
 * public, subdomain or trustless gateways. Each add and remove is in the audit log and reaches every
 * instance through the change feed (`deny-rules`), as the operator's rules do.
 */
export interface GatewayDenyRuleOperations {
  /**
   * Adds a rule; it applies to the next request on the tenant's gateways. One line in the compact
   * denylist format, else `INVALID_INPUT` saying why (nothing stored). `QUOTA_EXCEEDED` past
   * {@link MAX_TENANT_RULES}.
   */
  addRule(actor: Actor, rule: string, options?: CallOptions): Promise<TenantDenyRule>
  /** The tenant's rules, oldest first. */
  listRules(actor: Actor, options?: CallOptions): Promise<TenantDenyRule[]>
  /** Removes one; `NOT_FOUND` when the tenant has none by that id (another tenant's included). */
  removeRule(actor: Actor, id: string, options?: CallOptions): Promise<void>
  /** Loads every tenant's rules from the record store (a server awaits it before serving). */
  load(options?: CallOptions): Promise<void>
}
