import {
  type BlockedScanState,
  type DenyRuleRecord,
  type DenyRuleRecordStore,
  PinfoldError,
  type TenantDenyRuleRecord,
  throwIfAborted,
} from '@pinfold/interface'
import { newNotices } from './memory-blocked-notices.js'
import type { MemoryState } from './memory-state.js'

export function memoryDenyRuleRecords(state: MemoryState): DenyRuleRecordStore {
  const rules = new Map<string, DenyRuleRecord>()
  let line = 0
  const tenantRules = new Map<string, TenantDenyRuleRecord>()
  // each tenant's lines count on their own, never reused (as the PostgreSQL adapter's counter rows)
  const tenantLines = new Map<string, number>()
  let scan: BlockedScanState | undefined
  return {
    async addDenyRule(rule, options) {
      throwIfAborted(options?.signal)
      if (rules.has(rule.id)) throw new PinfoldError('CONFLICT', 'already exists')
      const stored: DenyRuleRecord = { ...rule, line: line + 1 }
      const given = (options?.blockedNotices ?? []).map((notice) => ({ ...notice, line: stored.line }))
      const notices = newNotices(state.blockedNotices, given)
      // a malformed event throws here, before anything is kept
      state.appendEvents([...(options?.events ?? []), ...notices.fresh.map((notice) => notice.event)])
      for (const key of notices.keys) state.blockedNotices.add(key)
      line = stored.line
      rules.set(stored.id, stored)
      return { ...stored }
    },
    async listDenyRules(options) {
      throwIfAborted(options?.signal)
      return [...rules.values()].map((rule) => ({ ...rule }))
    },
    async removeDenyRule(id, options) {
      throwIfAborted(options?.signal)
      if (!rules.has(id)) return false
      state.appendEvents(options?.events)
      rules.delete(id)
      return true
    },
    async addTenantDenyRule(rule, options) {
      throwIfAborted(options?.signal)
      if (tenantRules.has(rule.id)) throw new PinfoldError('CONFLICT', 'already exists')
      state.appendEvents(options?.events)
      const next = (tenantLines.get(rule.tenantId) ?? 0) + 1
      tenantLines.set(rule.tenantId, next)
      const stored: TenantDenyRuleRecord = { ...rule, line: next }
      tenantRules.set(stored.id, stored)
      return { ...stored }
    },
    async listTenantDenyRules(tenantId, options) {
      throwIfAborted(options?.signal)
      const all = [...tenantRules.values()].filter((rule) => tenantId === undefined || rule.tenantId === tenantId)
      return all
        .sort((a, b) => (a.tenantId < b.tenantId ? -1 : a.tenantId > b.tenantId ? 1 : a.line - b.line))
        .map((rule) => ({ ...rule }))
    },
    async removeTenantDenyRule(tenantId, id, options) {
      throwIfAborted(options?.signal)
      if (tenantRules.get(id)?.tenantId !== tenantId) return false
      state.appendEvents(options?.events)
      tenantRules.delete(id)
      return true
    },
    async recordBlockedNotices(given, options) {
      throwIfAborted(options?.signal)
      const { fresh, keys } = newNotices(state.blockedNotices, given)
      state.appendEvents(fresh.map((notice) => notice.event))
      for (const key of keys) state.blockedNotices.add(key)
      return fresh.map((notice) => ({ ...notice }))
    },
    async getBlockedScan(options) {
      throwIfAborted(options?.signal)
      return scan && { ...scan }
    },
    async putBlockedScan(saved, options) {
      throwIfAborted(options?.signal)
      scan = { fingerprint: saved.fingerprint, cursor: saved.cursor }
    },
  }
}
