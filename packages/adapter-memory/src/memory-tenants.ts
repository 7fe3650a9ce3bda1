import { type TenantRecord, type TenantRecordStore, throwIfAborted } from '@pinfold/interface'
import type { MemoryState } from './memory-state.js'

const copyTenant = (tenant: TenantRecord): TenantRecord => ({
  ...tenant,
  suspension: tenant.suspension && { ...tenant.suspension },
})

/** The tenant registry in a Map; each method checks and writes in one synchronous step. */
export function memoryTenantRecords(state: MemoryState): TenantRecordStore {
  const tenants = new Map<string, TenantRecord>()
  const tick = (options?: { signal?: AbortSignal | undefined }) => {
    throwIfAborted(options?.signal)
    return Promise.resolve()
  }
  return {
    async registerTenant(tenant, options) {
      await tick(options)
      const existing = tenants.get(tenant.id)
      if (existing) return { tenant: copyTenant(existing), created: false }
      state.appendEvents(options?.events)
      tenants.set(tenant.id, copyTenant(tenant))
      return { tenant: copyTenant(tenant), created: true }
    },

    async getTenant(id, options) {
      await tick(options)
      const tenant = tenants.get(id)
      return tenant && copyTenant(tenant)
    },

    async listTenants({ search, suspended, hidden }, { offset, limit }, options) {
      await tick(options)
      const text = search?.toLowerCase()
      const matching = [...tenants.values()]
        .filter((t) => text === undefined || t.id.toLowerCase().includes(text))
        .filter((t) => suspended === undefined || (t.suspension !== null) === suspended)
        .filter((t) => hidden !== true || t.suspension?.hideContent === true)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      return { items: matching.slice(offset, offset + limit).map(copyTenant), total: matching.length }
    },

    async setSuspension(id, suspension, options) {
      await tick(options)
      const tenant = tenants.get(id)
      if (!tenant) return undefined
      state.appendEvents(options?.events)
      tenant.suspension = suspension && { ...suspension }
      return copyTenant(tenant)
    },
  }
}
