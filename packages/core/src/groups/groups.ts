import { type Actor, type Network, type NewEvent, notFound } from '@pinfold/interface'
import { nextPageToken, resolvePage } from '../common/pagination.js'
import { validateName } from '../common/validate.js'
import { tenantEvent } from '../events/new-event.js'
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
      const group = {
        id: ctx.ids.recordId(),
        tenantId: actor.tenantId,
        network,
        name: validateName(input.name),
        isPublic: input.isPublic ?? false,
        createdAt: ctx.clock.now(),
      }
      const facts = { name: group.name, isPublic: group.isPublic, network }
      return ctx.records.groups.createGroup(group, {
        ...options,
        events: [tenantEvent(actor, { type: 'group.created', target: { kind: 'group', id: group.id }, data: facts })],
      })
    },

    get: mustGet,

    async list(actor, network, query = {}, options) {
      const page = resolvePage(query)
      const { limit: _l, order: _o, pageToken: _p, offset: _s, ...filter } = query
      const result = await ctx.records.groups.listGroups(actor.tenantId, network, filter, page, options)
      return { groups: result.items, nextPageToken: nextPageToken(result.items, result.hasMore) }
    },

    async update(actor, network, id, update, options) {
      const patch = {
        ...(update.name !== undefined && { name: validateName(update.name) }),
        ...(update.isPublic !== undefined && { isPublic: update.isPublic }),
      }
      const event = tenantEvent(actor, {
        type: 'group.updated',
        target: { kind: 'group', id },
        data: { ...patch, network },
      })
      const updated = await ctx.records.groups.updateGroup(actor.tenantId, network, id, patch, {
        ...options,
        events: [event],
      })
      if (!updated) throw notFound('group')
      return updated
    },

    async delete(actor, network, id, options) {
      const event = tenantEvent(actor, { type: 'group.deleted', target: { kind: 'group', id }, data: { network } })
      if (!(await ctx.records.groups.deleteGroup(actor.tenantId, network, id, { ...options, events: [event] }))) {
        throw notFound('group')
      }
    },

    async addFile(actor, network, groupId, fileId, options) {
      const events = [groupMove(actor, fileId, groupId, network)]
      const updated = await ctx.records.files.updateFile(
        actor.tenantId,
        network,
        fileId,
        { groupId },
        { ...options, events },
      )
      if (!updated) throw notFound('file')
    },

    async removeFile(actor, network, groupId, fileId, options) {
      await mustGet(actor, network, groupId, options)
      const file = await ctx.records.files.getFile(actor.tenantId, network, fileId, options)
      if (!file) throw notFound('file')
      if (file.groupId === groupId) {
        const events = [groupMove(actor, fileId, null, network)]
        await ctx.records.files.updateFile(actor.tenantId, network, fileId, { groupId: null }, { ...options, events })
      }
    },
  }
}

/** A file moved into a group or out of one (`groupId: null`): an update of the file. */
function groupMove(actor: Actor, fileId: string, groupId: string | null, network: Network): NewEvent {
  return tenantEvent(actor, { type: 'file.updated', target: { kind: 'file', id: fileId }, data: { groupId, network } })
}
