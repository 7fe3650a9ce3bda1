import { type CallOptions, PinfoldError, type TenantRecord, throwIfAborted } from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'
import type { TenantOperations } from './api.js'

/**
 * How long this process trusts what it last read of a tenant (and of the hidden tenants): a
 * suspension made through another server takes effect here within this. One made through this
 * server takes effect at once.
 */
export const TENANT_CACHE_MS = 5_000
/** Tenants remembered at once; the oldest read is forgotten first (and read again when it returns). */
const CACHE_MAX = 10_000
/** Tenants read per page when listing the hidden or suspended ones. */
const LIST_PAGE = 1000

export type TenantDirectorySettings = Pick<ServiceContext, 'records' | 'clock'>

/** The tenant operations and what the admin operations tell it of the changes they make. */
export interface TenantDirectory extends TenantOperations {
  /** The record an admin operation just wrote: this process acts on it at once. */
  remember(tenant: TenantRecord): void
  /**
   * Which read of the hidden tenants `hiddenTenants` would answer with now, without reading:
   * a number that changes with every read and every forgetting, or `undefined` when the last read
   * is too old (the next `hiddenTenants` reads again). What the gateway's kept answers are stamped
   * with (`GatewayOperations.answerStamp`).
   */
  hiddenTenantsVersion(): number | undefined
}

/**
 * The tenant registry as the request path uses it: each tenant's record kept in memory for
 * {@link TENANT_CACHE_MS}, so an authenticated request costs a Map lookup, a read every few
 * seconds per tenant, and a write only the first time a tenant is seen.
 */
export function createTenantDirectory(ctx: TenantDirectorySettings): TenantDirectory {
  const known = new Map<string, { tenant: TenantRecord; until: number }>()
  const reading = new Map<string, Promise<TenantRecord>>()
  const hidden = tenantList(ctx, { hidden: true })
  const suspended = tenantList(ctx, { suspended: true })

  function remember(tenant: TenantRecord): void {
    known.delete(tenant.id)
    if (known.size >= CACHE_MAX) known.delete(known.keys().next().value!)
    known.set(tenant.id, { tenant, until: ctx.clock.now().getTime() + TENANT_CACHE_MS })
  }

  /**
   * The stored record, registering the tenant when it has none; concurrent first requests share one
   * read, which no single request's signal may abort for the others.
   */
  function read(tenantId: string): Promise<TenantRecord> {
    const pending = reading.get(tenantId)
    if (pending) return pending
    const work = (async () => {
      const stored =
        (await ctx.records.tenants.getTenant(tenantId)) ??
        (
          await ctx.records.tenants.registerTenant({
            id: tenantId,
            createdAt: ctx.clock.now(),
            origin: 'token',
            suspension: null,
          })
        ).tenant
      remember(stored)
      return stored
    })().finally(() => reading.delete(tenantId))
    reading.set(tenantId, work)
    return work
  }

  return {
    async admit(actor, options) {
      throwIfAborted(options?.signal)
      const cached = known.get(actor.tenantId)
      const tenant = cached && cached.until > ctx.clock.now().getTime() ? cached.tenant : await read(actor.tenantId)
      if (tenant.suspension) {
        throw new PinfoldError(
          'FORBIDDEN',
          `tenant ${tenant.id} is suspended by the operator of this deployment: ${tenant.suspension.reason}`,
        )
      }
    },

    hiddenTenants: hidden.read,
    hiddenTenantsVersion: hidden.version,
    suspendedTenants: suspended.read,

    remember(tenant) {
      remember(tenant)
      // the next gateway read and the next pin claim ask the store again
      hidden.forget()
      suspended.forget()
    },
  }
}

/**
 * The ids of the tenants `filter` matches, read at most every {@link TENANT_CACHE_MS}; callers
 * waiting for one read share it, and no single caller's signal aborts it for the others.
 */
function tenantList(ctx: TenantDirectorySettings, filter: { hidden?: boolean; suspended?: boolean }) {
  let cached: { ids: readonly string[]; until: number; version: number } | undefined
  let reading: Promise<readonly string[]> | undefined
  let versions = 0
  // the last list read, kept past its time for its version; forgetting it starts a new version
  let last: { ids: readonly string[]; version: number } | undefined

  async function readAll(): Promise<readonly string[]> {
    const ids: string[] = []
    for (let offset = 0; ; offset += LIST_PAGE) {
      const page = await ctx.records.tenants.listTenants(filter, { offset, limit: LIST_PAGE })
      ids.push(...page.items.map((t) => t.id))
      if (page.items.length < LIST_PAGE) break
    }
    // the same ids read again keep their version: what was built on them still holds
    const same = last !== undefined && last.ids.length === ids.length && last.ids.every((id, i) => id === ids[i])
    const version = same ? last!.version : ++versions
    cached = { ids, until: ctx.clock.now().getTime() + TENANT_CACHE_MS, version }
    last = cached
    return ids
  }

  return {
    async read(options?: CallOptions): Promise<readonly string[]> {
      throwIfAborted(options?.signal)
      if (cached && cached.until > ctx.clock.now().getTime()) return cached.ids
      reading ??= readAll().finally(() => {
        reading = undefined
      })
      return reading
    },
    version(): number | undefined {
      return cached && cached.until > ctx.clock.now().getTime() ? cached.version : undefined
    },
    forget() {
      cached = undefined
      last = undefined
    },
  }
}
