import {
  type CallOptions,
  type ContentRecord,
  type FileFilter,
  type FileRecord,
  type GroupFilter,
  type GroupRecord,
  type Network,
  type Page,
  type PageRequest,
  PinfoldError,
  type RecordStore,
  throwIfAborted,
} from '@pinfold/core'

/**
 * Every record in Maps. Each method does all its checks and writes synchronously after its first
 * await point, so JavaScript's run-to-completion gives the port's "exactly one" race contracts
 * without locks — the same guarantees Postgres gets from row locks and unique constraints.
 * Records are copied in and out so callers can never mutate stored state by accident.
 */
export function createMemoryRecordStore(): RecordStore {
  const files = new Map<string, FileRecord>()
  const contents = new Map<string, ContentRecord>()
  const groups = new Map<string, GroupRecord>()

  const visibleFile = (tenantId: string, network: Network, id: string) => {
    const file = files.get(id)
    return file && file.tenantId === tenantId && file.network === network ? file : undefined
  }
  const visibleGroup = (tenantId: string, network: Network, id: string) => {
    const group = groups.get(id)
    return group && group.tenantId === tenantId && group.network === network ? group : undefined
  }
  const requireGroup = (tenantId: string, network: Network, id: string | null | undefined) => {
    if (id != null && !visibleGroup(tenantId, network, id)) throw new PinfoldError('NOT_FOUND', `group ${id} not found`)
  }

  return {
    async createFile(file, content, options?: CallOptions) {
      throwIfAborted(options?.signal)
      if (files.has(file.id)) throw new PinfoldError('CONFLICT', `file id ${file.id} already exists`)
      requireGroup(file.tenantId, file.network, file.groupId)
      const isDuplicate = [...files.values()].some(
        (f) => f.tenantId === file.tenantId && f.network === file.network && f.cid === file.cid,
      )
      const stored = contents.get(content.cid) ?? { ...content }
      contents.set(stored.cid, stored)
      const record: FileRecord = { ...file, keyvalues: { ...file.keyvalues }, vectorized: false }
      files.set(record.id, record)
      return { file: copyFile(record), isDuplicate, content: { ...stored } }
    },

    async getFile(tenantId, network, id, options) {
      throwIfAborted(options?.signal)
      const file = visibleFile(tenantId, network, id)
      return file && copyFile(file)
    },

    async listFiles(tenantId, network, filter, page, options) {
      throwIfAborted(options?.signal)
      const matching = [...files.values()].filter(
        (f) => f.tenantId === tenantId && f.network === network && matchesFile(f, filter),
      )
      return paginate(matching, page, copyFile)
    },

    async updateFile(tenantId, network, id, patch, options) {
      throwIfAborted(options?.signal)
      const file = visibleFile(tenantId, network, id)
      if (!file) return undefined
      if (patch.groupId !== undefined) requireGroup(tenantId, network, patch.groupId)
      if (patch.name !== undefined) file.name = patch.name
      if (patch.expiresAt !== undefined) file.expiresAt = patch.expiresAt
      if (patch.groupId !== undefined) file.groupId = patch.groupId
      if (patch.keyvalues) {
        for (const [key, value] of Object.entries(patch.keyvalues)) {
          if (value === null) delete file.keyvalues[key]
          else file.keyvalues[key] = value
        }
      }
      return copyFile(file)
    },

    async deleteFile(tenantId, network, id, options) {
      throwIfAborted(options?.signal)
      const file = visibleFile(tenantId, network, id)
      if (!file) return undefined
      files.delete(id)
      const stillReferenced = [...files.values()].some((f) => f.cid === file.cid)
      const content = contents.get(file.cid)
      if (stillReferenced || !content) return { file: copyFile(file) }
      contents.delete(file.cid)
      return { file: copyFile(file), releasedContent: { ...content } }
    },

    async getContent(cid, options) {
      throwIfAborted(options?.signal)
      const content = contents.get(cid)
      return content && { ...content }
    },

    async createGroup(group, options) {
      throwIfAborted(options?.signal)
      if (groups.has(group.id)) throw new PinfoldError('CONFLICT', `group id ${group.id} already exists`)
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
      if (patch.name !== undefined) group.name = patch.name
      if (patch.isPublic !== undefined) group.isPublic = patch.isPublic
      return { ...group }
    },

    async deleteGroup(tenantId, network, id, options) {
      throwIfAborted(options?.signal)
      if (!visibleGroup(tenantId, network, id)) return false
      groups.delete(id)
      for (const file of files.values()) if (file.groupId === id) file.groupId = null
      return true
    },
  }
}

function copyFile(file: FileRecord): FileRecord {
  return { ...file, keyvalues: { ...file.keyvalues } }
}

function matchesFile(file: FileRecord, filter: FileFilter): boolean {
  if (filter.namePrefix !== undefined && !file.name.startsWith(filter.namePrefix)) return false
  if (filter.groupId !== undefined && file.groupId !== filter.groupId) return false
  if (filter.cid !== undefined && file.cid !== filter.cid) return false
  if (filter.mimeType !== undefined && file.mimeType !== filter.mimeType) return false
  for (const [key, value] of Object.entries(filter.keyvalues ?? {})) {
    if (file.keyvalues[key] !== value) return false
  }
  return true
}

function matchesGroup(group: GroupRecord, filter: GroupFilter): boolean {
  if (filter.namePrefix !== undefined && !group.name.startsWith(filter.namePrefix)) return false
  if (filter.isPublic !== undefined && group.isPublic !== filter.isPublic) return false
  return true
}

/** Keyset pagination over (createdAt, id), the same order the SQL adapters use. */
function paginate<T extends { createdAt: Date; id: string }, R>(
  items: T[],
  page: PageRequest,
  copy: (item: T) => R,
): Page<R> {
  const direction = page.order === 'ASC' ? 1 : -1
  const compare = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
    (a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * direction
  const after = page.after
  const sorted = items.filter((item) => !after || compare(item, after) > 0).sort(compare)
  return { items: sorted.slice(0, page.limit).map(copy), hasMore: sorted.length > page.limit }
}
