import type { Actor, GroupFilter, GroupRecord, Network } from '@pinfold/interface'
import { notFound } from '@pinfold/interface'
import { nextPageToken, type PageQuery, resolvePage } from '../pagination.js'
import type { ServiceContext } from './context.js'
import { validateName } from './validate.js'

export interface GroupListQuery extends PageQuery, GroupFilter {}

export function createGroupOperations(ctx: ServiceContext) {
  return {
    async create(actor: Actor, network: Network, input: { name: unknown; isPublic?: boolean | undefined }) {
      return ctx.records.createGroup({
        id: ctx.ids.recordId(),
        tenantId: actor.tenantId,
        network,
        name: validateName(input.name),
        isPublic: input.isPublic ?? false,
        createdAt: ctx.clock.now(),
      })
    },

    async get(actor: Actor, network: Network, id: string): Promise<GroupRecord> {
      const group = await ctx.records.getGroup(actor.tenantId, network, id)
      if (!group) throw notFound('group')
      return group
    },

    async list(actor: Actor, network: Network, query: GroupListQuery = {}) {
      const page = resolvePage(query)
      const { limit: _l, order: _o, pageToken: _p, ...filter } = query
      const result = await ctx.records.listGroups(actor.tenantId, network, filter, page)
      return { groups: result.items, nextPageToken: nextPageToken(result.items, result.hasMore) }
    },

    async update(
      actor: Actor,
      network: Network,
      id: string,
      patch: { name?: unknown; isPublic?: boolean | undefined },
    ) {
      const updated = await ctx.records.updateGroup(actor.tenantId, network, id, {
        ...(patch.name !== undefined && { name: validateName(patch.name) }),
        ...(patch.isPublic !== undefined && { isPublic: patch.isPublic }),
      })
      if (!updated) throw notFound('group')
      return updated
    },

    async delete(actor: Actor, network: Network, id: string): Promise<void> {
      if (!(await ctx.records.deleteGroup(actor.tenantId, network, id))) throw notFound('group')
    },

    /** Puts a file into a group; both must belong to the actor and live on `network`. */
    async addFile(actor: Actor, network: Network, groupId: string, fileId: string): Promise<void> {
      const updated = await ctx.records.updateFile(actor.tenantId, network, fileId, { groupId })
      if (!updated) throw notFound('file')
    },

    /** Takes a file out of a group; a file that is not in that group is left as it is. */
    async removeFile(actor: Actor, network: Network, groupId: string, fileId: string): Promise<void> {
      await this.get(actor, network, groupId)
      const file = await ctx.records.getFile(actor.tenantId, network, fileId)
      if (!file) throw notFound('file')
      if (file.groupId === groupId) await ctx.records.updateFile(actor.tenantId, network, fileId, { groupId: null })
    },
  }
}
