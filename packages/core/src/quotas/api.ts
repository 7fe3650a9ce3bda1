/** `FileService.quotas`: the contract (its operations are in the other files of this folder). */

import type {
  Actor,
  CallOptions,
  RecordedOptions,
  TenantLimitOverrides,
  TenantLimits,
  TenantUsage,
} from '@pinfold/interface'

/** A tenant's limits as they apply, the operator's overrides among them, and its use. */
export interface TenantAccount {
  tenantId: string
  /** The deployment's defaults with the tenant's overrides applied; `null` is no limit. */
  limits: TenantLimits
  /** Only what the operator set for this tenant. */
  overrides: TenantLimitOverrides
  usage: TenantUsage
}

export interface QuotaOperations {
  /** The acting tenant's own limits and use. */
  account(actor: Actor, options?: CallOptions): Promise<TenantAccount>
  /** Any tenant's limits and use (for the operator's admin API). */
  tenantAccount(tenantId: string, options?: CallOptions): Promise<TenantAccount>
  /**
   * Replaces a tenant's overrides (for the operator's admin API): each a non-negative integer, or
   * `null` for no limit; an absent one takes the default. `INVALID_INPUT` for anything else.
   */
  setTenantLimits(tenantId: string, overrides: TenantLimitOverrides, options?: RecordedOptions): Promise<TenantAccount>
  /**
   * Takes one request from the tenant's per-minute budget (`requestsPerMinute`); `RATE_LIMITED`
   * with `retryAfterSeconds` when none is left. Limits are read at most every few seconds per tenant.
   */
  takeRequest(actor: Actor, options?: CallOptions): Promise<void>
}
