import {
  type GroupFilter,
  type GroupRecord,
  type GroupRecordStore,
  PinfoldError,
  throwIfAborted,
} from '@pinfold/interface'
import { containsIgnoringCase } from './memory-keyvalue-conditions.js'
import { paginate } from './memory-paging.js'
import type { MemoryState } from './memory-state.js'

export function memoryGroupRecords(state: MemoryState): GroupRecordStore {
  const { files, groups, visibleGroup } = state
  return {
    async createGroup(group, options) {
      throwIfAborted(options?.signal)
      if (groups.has(group.id)) throw new PinfoldError('CONFLICT', `group id ${group.id} already exists`)
      state.appendEvents(options?.events)
      groups.set(group.id, { ...group })
      return { ...group }
    },

    async getGroup(tenantId, network, id, options) {
      throwIfAborted(options?.signal)
      const group = visibleGroup(tenantId, network, id)
      return group && { ...group }
    },

    async listGroups(tenantId, network, filter, page, options) {
      throwIfAborted(options?.signal)
      const matching = [...groups.values()].filter(
        (g) => g.tenantId === tenantId && g.network === network && matchesGroup(g, filter),
      )
      return paginate(matching, page, (g) => ({ ...g }))
    },

    async updateGroup(tenantId, network, id, patch, options) {
      throwIfAborted(options?.signal)
      const group = visibleGroup(tenantId, network, id)
      if (!group) return undefined
      state.appendEvents(options?.events)
      if (patch.name !== undefined) group.name = patch.name
      if (patch.isPublic !== undefined) group.isPublic = patch.isPublic
      return { ...group }
    },

    async deleteGroup(tenantId, network, id, options) {
      throwIfAborted(options?.signal)
      if (!visibleGroup(tenantId, network, id)) return false
      state.appendEvents(options?.events)
      groups.delete(id)
      for (const file of files.values()) if (file.groupId === id) file.groupId = null
      return true
    },
  }
}

function matchesGroup(group: GroupRecord, filter: GroupFilter): boolean {
  if (filter.namePrefix !== undefined && !group.name.startsWith(filter.namePrefix)) return false
  if (filter.isPublic !== undefined && group.isPublic !== filter.isPublic) return false
  if (filter.nameContains !== undefined && !containsIgnoringCase(group.name, filter.nameContains)) return false
  return true
}
