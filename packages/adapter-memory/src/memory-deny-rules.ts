import { type DenyRuleRecord, type DenyRuleRecordStore, PinfoldError, throwIfAborted } from '@pinfold/interface'
import type { MemoryState } from './memory-state.js'

export function memoryDenyRuleRecords(state: MemoryState): DenyRuleRecordStore {
  const rules = new Map<string, DenyRuleRecord>()
  let line = 0
  return {
    async addDenyRule(rule, options) {
      throwIfAborted(options?.signal)
      if (rules.has(rule.id)) throw new PinfoldError('CONFLICT', 'already exists')
      state.appendEvents(options?.events)
      const stored: DenyRuleRecord = { ...rule, line: ++line }
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
  }
}
