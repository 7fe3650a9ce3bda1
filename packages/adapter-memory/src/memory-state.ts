import {
  type BlockLocation,
  type ContentRecord,
  type EventRecord,
  type FileRecord,
  type GroupRecord,
  type Network,
  type NewEvent,
  PinfoldError,
} from '@pinfold/interface'
import { createMemoryAccounting, type MemoryAccounting } from './memory-accounts.js'
import { createMemoryEventLog, type StoredEvent } from './memory-events.js'

/**
 * The records every part of the memory store may look at. Each part of the store (files, groups,
 * and the feature parts added beside them) keeps its own private maps in its own file and reads
 * the others through this object.
 */
export interface MemoryState {
  files: Map<string, FileRecord>
  contents: Map<string, ContentRecord>
  groups: Map<string, GroupRecord>
  /** The block index: blob key → multihash key → location. */
  blocks: Map<string, Map<string, BlockLocation>>
  /** The blob keys holding each block, by multihash key. */
  blockHolders: Map<string, Set<string>>
  /** Per-tenant figures, changed with the file records they count. */
  accounting: MemoryAccounting
  /** The audit log, oldest first; another part (the webhooks) may read and mark `fannedOut`. */
  events: StoredEvent[]
  /**
   * Appends a write's events (`RecordedOptions.events`): called after the write's checks and before
   * its first change, it throws (a malformed event) having appended nothing, and then the write
   * changes nothing either.
   */
  appendEvents(events: readonly NewEvent[] | undefined): EventRecord[]
  /** The `content.blocked` notices told, by tenant, CID, list and line (see `memory-blocked-notices.ts`). */
  blockedNotices: Set<string>
  /** Drops every block entry of a blob. */
  dropBlocks(blobKey: string): void
  visibleFile(tenantId: string, network: Network, id: string): FileRecord | undefined
  visibleGroup(tenantId: string, network: Network, id: string): GroupRecord | undefined
  /** Throws NOT_FOUND unless `id` is null/undefined or a group of this tenant and network. */
  requireGroup(tenantId: string, network: Network, id: string | null | undefined): void
}

export function createMemoryState(): MemoryState {
  const files = new Map<string, FileRecord>()
  const contents = new Map<string, ContentRecord>()
  const groups = new Map<string, GroupRecord>()
  const blocks = new Map<string, Map<string, BlockLocation>>()
  const blockHolders = new Map<string, Set<string>>()
  const visibleFile = (tenantId: string, network: Network, id: string) => {
    const file = files.get(id)
    return file && file.tenantId === tenantId && file.network === network ? file : undefined
  }
  const visibleGroup = (tenantId: string, network: Network, id: string) => {
    const group = groups.get(id)
    return group && group.tenantId === tenantId && group.network === network ? group : undefined
  }
  const log = createMemoryEventLog()
  return {
    files,
    contents,
    groups,
    blocks,
    blockHolders,
    accounting: createMemoryAccounting(),
    events: log.events,
    appendEvents: log.appendEvents,
    blockedNotices: new Set(),
    dropBlocks(blobKey) {
      for (const id of blocks.get(blobKey)?.keys() ?? []) {
        const holders = blockHolders.get(id)
        holders?.delete(blobKey)
        if (holders?.size === 0) blockHolders.delete(id)
      }
      blocks.delete(blobKey)
    },
    visibleFile,
    visibleGroup,
    requireGroup(tenantId, network, id) {
      if (id != null && !visibleGroup(tenantId, network, id)) throw new PinfoldError('NOT_FOUND', 'group not found')
    },
  }
}

export function copyFile(file: FileRecord): FileRecord {
  return { ...file, keyvalues: { ...file.keyvalues } }
}
