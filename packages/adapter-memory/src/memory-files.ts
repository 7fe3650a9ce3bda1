import {
  type CreateFileOptions,
  type FileFilter,
  type FileRecord,
  type FileRecordStore,
  notFound,
  PinfoldError,
  throwIfAborted,
} from '@pinfold/interface'
import { newNotices } from './memory-blocked-notices.js'
import { containsIgnoringCase, holds } from './memory-keyvalue-conditions.js'
import { paginate } from './memory-paging.js'
import { copyFile, type MemoryState } from './memory-state.js'

export function memoryFileRecords(state: MemoryState): FileRecordStore {
  const { files, contents, visibleFile, requireGroup } = state
  return {
    async createFile(file, content, options?: CreateFileOptions) {
      throwIfAborted(options?.signal)
      if (files.has(file.id)) throw new PinfoldError('CONFLICT', `file id ${file.id} already exists`)
      requireGroup(file.tenantId, file.network, file.groupId)
      if (options?.requireContent && !contents.has(content.cid)) throw notFound('content')
      const isDuplicate = [...files.values()].some(
        (f) => f.tenantId === file.tenantId && f.network === file.network && f.cid === file.cid,
      )
      state.accounting.checkQuota(file, options?.quota)
      const notices = newNotices(state.blockedNotices, options?.blockedNotices ?? [])
      state.appendEvents([...(options?.events ?? []), ...notices.fresh.map((notice) => notice.event)])
      for (const key of notices.keys) state.blockedNotices.add(key)
      const stored = contents.get(content.cid) ?? { ...content }
      contents.set(stored.cid, stored)
      const record: FileRecord = { ...file, keyvalues: { ...file.keyvalues }, vectorized: false }
      files.set(record.id, record)
      state.accounting.fileAdded(record, stored)
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
      state.appendEvents(options?.events)
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
      state.appendEvents(options?.events)
      files.delete(id)
      const stillReferenced = [...files.values()].some((f) => f.cid === file.cid)
      const content = contents.get(file.cid)
      if (content) state.accounting.fileRemoved(file, content)
      if (stillReferenced || !content) return { file: copyFile(file) }
      contents.delete(file.cid)
      state.dropBlocks(content.blobKey)
      return { file: copyFile(file), releasedContent: { ...content } }
    },

    async getContent(cid, options) {
      throwIfAborted(options?.signal)
      const content = contents.get(cid)
      return content && { ...content }
    },

    async isBlobReferenced(blobKey, options) {
      throwIfAborted(options?.signal)
      for (const content of contents.values()) if (content.blobKey === blobKey) return true
      return false
    },
  }
}

function matchesFile(file: FileRecord, filter: FileFilter): boolean {
  if (filter.namePrefix !== undefined && !file.name.startsWith(filter.namePrefix)) return false
  if (filter.groupId !== undefined && file.groupId !== filter.groupId) return false
  if (filter.cid !== undefined && file.cid !== filter.cid) return false
  if (filter.mimeType !== undefined && file.mimeType !== filter.mimeType) return false
  for (const [key, value] of Object.entries(filter.keyvalues ?? {})) {
    if (file.keyvalues[key] !== value) return false
  }
  if (filter.nameContains !== undefined && !containsIgnoringCase(file.name, filter.nameContains)) return false
  if (filter.cidContains !== undefined && !file.cid.includes(filter.cidContains)) return false
  if (filter.createdFrom !== undefined && file.createdAt < filter.createdFrom) return false
  if (filter.createdTo !== undefined && file.createdAt > filter.createdTo) return false
  if (filter.sizeMin !== undefined && file.size < filter.sizeMin) return false
  if (filter.sizeMax !== undefined && file.size > filter.sizeMax) return false
  return (filter.keyvalueConditions ?? []).every((condition) => holds(condition, file.keyvalues[condition.key]))
}
