import type { CallOptions } from '../call-options.js'
import type { GroupFilter, GroupPatch, GroupRecord, Network, Page, PageRequest } from '../model.js'
import type { RecordedOptions } from './event-records.js'

/** Groups of files; a group lives on one network of one tenant. */
export interface GroupRecordStore {
  /** Stores a new group; reusing an id is a `CONFLICT`. */
  createGroup(group: GroupRecord, options?: RecordedOptions): Promise<GroupRecord>

  getGroup(tenantId: string, network: Network, id: string, options?: CallOptions): Promise<GroupRecord | undefined>

  /** Keyset page like `FileRecordStore.listFiles`. */
  listGroups(
    tenantId: string,
    network: Network,
    filter: GroupFilter,
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<GroupRecord>>

  updateGroup(
    tenantId: string,
    network: Network,
    id: string,
    patch: GroupPatch,
    options?: RecordedOptions,
  ): Promise<GroupRecord | undefined>

  /** Deletes a group; its files stay and belong to no group afterwards. False when absent. */
  deleteGroup(tenantId: string, network: Network, id: string, options?: RecordedOptions): Promise<boolean>
}
