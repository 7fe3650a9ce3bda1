/**
 * The tenant registry: every tenant the deployment knows, for its operator. A tenant is the `org`
 * of a token (or the tenant of an API key); it becomes known by its first authenticated request
 * or when an operator creates it through the admin API. Its records elsewhere (files, keys, pins)
 * name it by id and do not depend on this registry: it holds what the operator decides about a
 * tenant (a suspension), and lets the operator list and search tenants.
 */

import type { CallOptions } from '../call-options.js'
import type { RecordedOptions } from './event-records.js'

/** How a tenant became known: its first authenticated request (`token`) or the admin API (`admin`). */
export type TenantOrigin = 'token' | 'admin'

/** An operator's suspension: the tenant's tokens and keys are refused while it lasts. */
export interface TenantSuspension {
  at: Date
  /** Why, in the operator's words: every refused request names it. */
  reason: string
  /** Whether the gateways stop serving the tenant's public content meanwhile (else it stays served). */
  hideContent: boolean
}

export interface TenantRecord {
  /** The tenant's id: the `org` claim of its tokens. */
  id: string
  createdAt: Date
  origin: TenantOrigin
  /** `null` while the tenant is active. */
  suspension: TenantSuspension | null
}

export interface TenantFilter {
  /** Ids containing this text, case-insensitively (matched literally: `%` and `_` are plain characters). */
  search?: string | undefined
  /** `true`: only suspended tenants; `false`: only active ones. */
  suspended?: boolean | undefined
  /** `true`: only tenants suspended with `hideContent`. */
  hidden?: boolean | undefined
}

export interface TenantRecordStore {
  /**
   * Stores the tenant unless one with its id exists; either way answers the stored record and
   * whether this call created it. Of concurrent registrations of one id exactly one creates it,
   * and an existing tenant (its origin, its suspension) is never changed.
   */
  registerTenant(tenant: TenantRecord, options?: RecordedOptions): Promise<{ tenant: TenantRecord; created: boolean }>

  getTenant(id: string, options?: CallOptions): Promise<TenantRecord | undefined>

  /**
   * The tenants matching `filter` (filters combine with AND), by id ascending, skipping `offset` and
   * returning at most `limit`, with the number matching in all.
   */
  listTenants(
    filter: TenantFilter,
    page: { offset: number; limit: number },
    options?: CallOptions,
  ): Promise<{ items: TenantRecord[]; total: number }>

  /**
   * Sets the tenant's suspension (replacing one it has) or, with `null`, lifts it; answers the
   * record after the change, `undefined` when no tenant has this id (nothing is stored then).
   */
  setSuspension(
    id: string,
    suspension: TenantSuspension | null,
    options?: RecordedOptions,
  ): Promise<TenantRecord | undefined>
}
