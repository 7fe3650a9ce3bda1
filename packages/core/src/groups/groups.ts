import { notFound } from '@pinfold/interface'
import { nextPageToken, resolvePage } from '../common/pagination.js'
import { validateName } from '../common/validate.js'
import type { ServiceContext } from '../service/context.js'
import type { GroupOperations } from './api.js'

/** What the group operations use of the service. */
export type GroupSettings = Pick<ServiceContext, 'records' | 'ids' | 'clock'>

export function createGroupOperations(ctx: GroupSettings): GroupOperations {
  const mustGet: GroupOperations['get'] = async (actor, network, id, options) => {
    const group = await ctx.records.groups.getGroup(actor.tenantId, network, id, options)
    if (!group) throw notFound('group')
    return group
  }

  return {
    async create(actor, network, input, options) {
      return ctx.records.groups.createGroup(
        {
          id: ctx.ids.recordId(),
          tenantId: actor.tenantId,
          network,
          name: validateName(input.name),
          isPublic: input.isPublic ?? false,
          createdAt: ctx.clock.now(),
        },
        options,
      )
    },

    get: mustGet,

    async list(actor, network, query = {}, options) {
      const page = resolvePage(query)
      const { limit: _l, order: _o, pageToken: _p, offset: _s, ...filter } = query
      const result = await ctx.records.groups.listGroups(actor.tenantId, network, filter, page, options)
      return { groups: result.items, nextPageToken: nextPageToken(result.items, result.hasMore) }
    },

    async update(actor, network, id, update, options) {
      const updated = await ctx.records.groups.updateGroup(
        actor.tenantId,
        network,
        id,
        {
          ...(update.name !== undefined && { name: validateName(update.name) }),
          ...(update.isPublic !== undefined && { isPublic: update.isPublic }),
        },
        options,
      )
      if (!updated) throw notFound('group')
      return updated
    },

    async delete(actor, network, id, options) {
      if (!(await ctx.records.groups.deleteGroup(actor.tenantId, network, id, options))) throw notFound('group')
    },

    async addFile(actor, network, groupId, fileId, options) {
      const updated = await ctx.records.files.updateFile(actor.tenantId, network, fileId, { groupId }, options)
      if (!updated) throw notFound('file')
    },

    async removeFile(actor, network, groupId, fileId, options) {
      await mustGet(actor, network, groupId, options)
      const file = await ctx.records.files.getFile(actor.tenantId, network, fileId, options)
      if (!file) throw notFound('file')
      if (file.groupId === groupId) {
        await ctx.records.files.updateFile(actor.tenantId, network, fileId, { groupId: null }, options)
      }
    },
  }
}
