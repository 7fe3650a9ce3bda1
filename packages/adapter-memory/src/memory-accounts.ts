import {
  type ContentRecord,
  type FileQuota,
  type FileRecord,
  type KeptTenantUsage,
  PinfoldError,
  type TenantAccountRecordStore,
  type TenantLimitOverrides,
  throwIfAborted,
} from '@pinfold/interface'
import type { MemoryState } from './memory-state.js'

const zero = (): KeptTenantUsage => ({ files: 0, logicalBytes: 0, contents: 0, soleBytes: 0, sharedBytes: 0 })

/**
 * The kept per-tenant figures, changed by the files part in the same synchronous step as the file
 * records they count (the rule for sole and shared bytes is in `TenantUsage`).
 */
export interface MemoryAccounting {
  /** Throws `QUOTA_EXCEEDED` when recording `file` would take its tenant past `quota`; changes nothing. */
  checkQuota(file: Pick<FileRecord, 'tenantId' | 'size'>, quota: FileQuota | undefined): void
  fileAdded(file: FileRecord, content: ContentRecord): void
  fileRemoved(file: FileRecord, content: ContentRecord): void
  kept(tenantId: string): KeptTenantUsage
}

export function createMemoryAccounting(): MemoryAccounting {
  const usage = new Map<string, KeptTenantUsage>()
  /** cid → tenant → how many of the tenant's files reference the content. */
  const holders = new Map<string, Map<string, number>>()
  const of = (tenantId: string) => {
    const figures = usage.get(tenantId) ?? zero()
    usage.set(tenantId, figures)
    return figures
  }
  return {
    checkQuota(file, quota) {
      if (!quota) return
      const now = usage.get(file.tenantId) ?? zero()
      if (quota.maxFiles !== undefined && now.files + 1 > quota.maxFiles) throw filesExceeded(quota.maxFiles)
      if (quota.maxLogicalBytes !== undefined && now.logicalBytes + file.size > quota.maxLogicalBytes) {
        throw storageExceeded(quota.maxLogicalBytes)
      }
    },
    fileAdded(file, content) {
      const mine = of(file.tenantId)
      mine.files += 1
      mine.logicalBytes += file.size
      const byTenant = holders.get(content.cid) ?? new Map<string, number>()
      holders.set(content.cid, byTenant)
      const held = byTenant.get(file.tenantId) ?? 0
      byTenant.set(file.tenantId, held + 1)
      if (held > 0) return
      mine.contents += 1
      if (byTenant.size === 1) mine.soleBytes += content.size
      else mine.sharedBytes += content.size
      if (byTenant.size === 2) {
        // the content's first holder shares it from now on
        const first = of([...byTenant.keys()].find((t) => t !== file.tenantId)!)
        first.soleBytes -= content.size
        first.sharedBytes += content.size
      }
    },
    fileRemoved(file, content) {
      const mine = of(file.tenantId)
      mine.files -= 1
      mine.logicalBytes -= file.size
      const byTenant = holders.get(content.cid)
      const held = byTenant?.get(file.tenantId) ?? 0
      if (!byTenant || held > 1) {
        byTenant?.set(file.tenantId, held - 1)
        return
      }
      const shared = byTenant.size > 1
      byTenant.delete(file.tenantId)
      mine.contents -= 1
      if (shared) mine.sharedBytes -= content.size
      else mine.soleBytes -= content.size
      if (byTenant.size === 1) {
        const last = of([...byTenant.keys()][0]!)
        last.sharedBytes -= content.size
        last.soleBytes += content.size
      }
      if (byTenant.size === 0) holders.delete(content.cid)
    },
    kept: (tenantId) => ({ ...(usage.get(tenantId) ?? zero()) }),
  }
}

export function filesExceeded(max: number): PinfoldError {
  return new PinfoldError('QUOTA_EXCEEDED', `file limit reached: the account may hold ${max} files`)
}

export function storageExceeded(max: number): PinfoldError {
  return new PinfoldError('QUOTA_EXCEEDED', `storage limit reached: the account may store ${max} bytes`)
}

export function memoryTenantAccounts(state: MemoryState): TenantAccountRecordStore {
  const limits = new Map<string, TenantLimitOverrides>()
  /** `${window} ${tenantId}` → requests counted (a tenant id never holds the space's window digits first). */
  const requestCounts = new Map<string, number>()
  const counted = (tenantId: string, window: number) => requestCounts.get(`${window} ${tenantId}`) ?? 0
  return {
    async keptUsage(tenantId, options) {
      throwIfAborted(options?.signal)
      return state.accounting.kept(tenantId)
    },
    async vectorizedFiles(tenantId, options) {
      throwIfAborted(options?.signal)
      let count = 0
      for (const file of state.files.values()) if (file.tenantId === tenantId && file.vectorized) count += 1
      return count
    },
    async getLimits(tenantId, options) {
      throwIfAborted(options?.signal)
      return { ...limits.get(tenantId) }
    },
    async setLimits(tenantId, given, options) {
      throwIfAborted(options?.signal)
      const stored = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined))
      state.appendEvents(options?.events)
      if (Object.keys(stored).length === 0) limits.delete(tenantId)
      else limits.set(tenantId, stored)
      return { ...stored }
    },
    async addRequestCounts(increments, window, options) {
      throwIfAborted(options?.signal)
      for (const { tenantId, window: at, count } of increments) {
        if (count > 0) requestCounts.set(`${at} ${tenantId}`, counted(tenantId, at) + count)
      }
      return new Map(
        increments.map(({ tenantId }) => [
          tenantId,
          { current: counted(tenantId, window), previous: counted(tenantId, window - 1) },
        ]),
      )
    },
    async dropRequestCountsBefore(window, options) {
      throwIfAborted(options?.signal)
      for (const key of requestCounts.keys())
        if (Number(key.slice(0, key.indexOf(' '))) < window) requestCounts.delete(key)
    },
  }
}
