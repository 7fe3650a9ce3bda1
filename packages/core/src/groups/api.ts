/** `FileService.groups`: the contract (its operations are in `groups.ts`). */

import type { Actor, CallOptions, GroupFilter, GroupRecord, Network } from '@pinfold/interface'
import type { ListResult } from '../common/api.js'
import type { PageQuery } from '../common/pagination.js'

export interface GroupInput {
  name: string
  /** Default `false`. */
  isPublic?: boolean | undefined
}

export interface GroupUpdate {
  name?: string | undefined
  isPublic?: boolean | undefined
}

export interface GroupListQuery extends PageQuery, GroupFilter {}

export interface GroupListResult extends ListResult {
  groups: GroupRecord[]
}

export interface GroupOperations {
  /** Creates a group of the tenant on `network`. `INVALID_INPUT`: a bad name. */
  create(actor: Actor, network: Network, input: GroupInput, options?: CallOptions): Promise<GroupRecord>

  /** The tenant's group with this id on `network`. `NOT_FOUND`. */
  get(actor: Actor, network: Network, id: string, options?: CallOptions): Promise<GroupRecord>

  /** A page of the tenant's groups on `network`. `INVALID_INPUT`: a bad limit or page token. */
  list(actor: Actor, network: Network, query?: GroupListQuery, options?: CallOptions): Promise<GroupListResult>

  /** Renames a group or changes whether it is public. `INVALID_INPUT`: a bad name. `NOT_FOUND`. */
  update(actor: Actor, network: Network, id: string, update: GroupUpdate, options?: CallOptions): Promise<GroupRecord>

  /** Deletes a group; its files stay and belong to no group afterwards. `NOT_FOUND`. */
  delete(actor: Actor, network: Network, id: string, options?: CallOptions): Promise<void>

  /** Puts a file into a group; both must belong to the actor and live on `network`, else `NOT_FOUND`. */
  addFile(actor: Actor, network: Network, groupId: string, fileId: string, options?: CallOptions): Promise<void>

  /**
   * Takes a file out of a group; a file that is not in that group is left as it is. `NOT_FOUND`
   * when the group or the file does not exist.
   */
  removeFile(actor: Actor, network: Network, groupId: string, fileId: string, options?: CallOptions): Promise<void>
}
