/** `FileService.tenants` and `FileService.admin`: the contracts (operations in `tenant-directory.ts`, `admin.ts`). */

import type {
  Actor,
  CallOptions,
  KeptTenantUsage,
  PinRequestRecord,
  PinRequestState,
  StorageUsage,
  TenantLimitOverrides,
  TenantLimits,
  TenantRecord,
} from '@pinfold/interface'
import type { OperatorActor } from '../auth/operator-tokens.js'
import type { TenantAccount } from '../quotas/api.js'

/** What the request path asks of the tenant registry. */
export interface TenantOperations {
  /**
   * Lets a verified tenant's request through: a tenant seen for the first time is registered
   * (origin `token`), a suspended one is refused with `FORBIDDEN` naming the suspension. Known
   * tenants are remembered: this reads the store at most every {@link TENANT_CACHE_MS} per tenant
   * and writes only on a tenant's first request.
   */
  admit(actor: Actor, options?: CallOptions): Promise<void>
  /**
   * Tenants whose public content an operator hid (suspended with `hideContent`): the gateways serve
   * none of their content. Re-read at most every {@link TENANT_CACHE_MS}.
   */
  hiddenTenants(options?: CallOptions): Promise<readonly string[]>
  /**
   * Every suspended tenant (hidden or not): the pin workers start none of their queued jobs. Re-read
   * at most every {@link TENANT_CACHE_MS}; a suspension made by this process applies at once.
   */
  suspendedTenants(options?: CallOptions): Promise<readonly string[]>
}

export interface TenantListQuery {
  /** Ids containing this, any case. */
  search?: string | undefined
  status?: 'active' | 'suspended' | undefined
  offset?: number | undefined
  /** 1 to {@link ADMIN_PAGE_MAX}, default {@link ADMIN_PAGE_DEFAULT}. */
  limit?: number | undefined
}

/** A tenant as an operator's list shows it: the registry's record, what it stores and its limits. */
export interface TenantSummary extends TenantRecord {
  /** Its files (both networks) and the sum of their sizes: the figures `GET /v3/usage/storage` gives the tenant. */
  usage: StorageUsage
  /** The figures the store keeps with every file: its bytes alone and shared under deduplication. */
  kept: KeptTenantUsage
  /** Its limits as they apply: the deployment's defaults with the operator's overrides. */
  limits: TenantLimits
}

export interface TenantDetail extends TenantRecord {
  usage: StorageUsage
  /** Its pin-by-CID requests in each state. */
  pins: Record<PinRequestState, number>
  apiKeys: { total: number; active: number }
  /** The tenant's limits as they apply (the operator's overrides among them) and its use of them. */
  account: TenantAccount
}

export interface SuspendInput {
  /** Shown to the operator and in every refusal of the tenant's requests. 1 to 500 characters. */
  reason: string
  /** Whether the gateways stop serving the tenant's public content while it is suspended. */
  hideContent: boolean
}

export interface PinQueueQuery {
  states?: readonly PinRequestState[] | undefined
  /** Oldest first (`ASC`, the default) or newest first. */
  order?: 'ASC' | 'DESC' | undefined
  limit?: number | undefined
  pageToken?: string | undefined
}

/**
 * The operator's operations (the admin API). Each takes the operator `authenticate` verified; none
 * is reachable with a tenant's credentials.
 */
export interface AdminOperations {
  /** The operator an operator token names; `UNAUTHENTICATED` for any other token. */
  authenticate(token: string, options?: CallOptions): Promise<OperatorActor>
  listTenants(
    operator: OperatorActor,
    query: TenantListQuery,
    options?: CallOptions,
  ): Promise<{ tenants: TenantSummary[]; total: number }>
  /** `NOT_FOUND` for a tenant the registry does not hold. */
  getTenant(operator: OperatorActor, tenantId: string, options?: CallOptions): Promise<TenantDetail>
  /** Registers a tenant (origin `admin`) before its first request; `CONFLICT` if it exists. */
  createTenant(operator: OperatorActor, tenantId: string, options?: CallOptions): Promise<TenantRecord>
  /** Suspends (or changes the suspension of) a tenant; `NOT_FOUND` for an unknown one. */
  suspend(operator: OperatorActor, tenantId: string, input: SuspendInput, options?: CallOptions): Promise<TenantRecord>
  /** Lifts a suspension (a no-op on an active tenant); `NOT_FOUND` for an unknown one. */
  resume(operator: OperatorActor, tenantId: string, options?: CallOptions): Promise<TenantRecord>
  /**
   * Replaces the tenant's limit overrides (`QuotaOperations.setTenantLimits`); `NOT_FOUND` for a
   * tenant the registry does not hold.
   */
  setLimits(
    operator: OperatorActor,
    tenantId: string,
    overrides: TenantLimitOverrides,
    options?: CallOptions,
  ): Promise<TenantAccount>
  /** Revokes every API key of the tenant; answers how many were revoked. `NOT_FOUND` for an unknown one. */
  revokeApiKeys(operator: OperatorActor, tenantId: string, options?: CallOptions): Promise<number>
  /** Every tenant's pin-by-CID requests, by state, a keyset page at a time. */
  pinQueue(
    operator: OperatorActor,
    query: PinQueueQuery,
    options?: CallOptions,
  ): Promise<{ requests: PinRequestRecord[]; nextPageToken: string }>
}
