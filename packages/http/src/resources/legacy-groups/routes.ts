import { type Actor, type FileService, notFound } from '@pinfold/core'
import { jsonResponse, okText } from '../../openapi/responses.js'
import { json, plainText } from '../../responses.js'
import { defineRoute } from '../../router.js'
import {
  GroupCids,
  LegacyGroup,
  LegacyGroupInput,
  LegacyGroupList,
  LegacyGroupListQuery,
  legacyGroupToWire,
} from './wire.js'

/**
 * The legacy group API, mapped onto the groups of the public network. Its paths hold no network
 * (`/groups/{id}`), so they never meet the v3 ones (`/v3/groups/{network}/{id}`). A group is given
 * CIDs: each names the account's public files with that CID, all of which join or leave it.
 */

/** The ids of the tenant's public files of each CID; `NOT_FOUND` names the first CID with none. */
async function fileIdsOf(service: FileService, actor: Actor, cids: string[], signal: AbortSignal) {
  const ids: string[] = []
  for (const cid of new Set(cids)) {
    const before = ids.length
    let pageToken: string | undefined
    do {
      const page = await service.files.list(actor, 'public', { cid, limit: 1000, pageToken }, { signal })
      ids.push(...page.files.map((file) => file.id))
      pageToken = page.nextPageToken || undefined
    } while (pageToken)
    if (ids.length === before) throw notFound(`file with CID ${cid.slice(0, 100)}`)
  }
  return ids
}

export const legacyGroupRoutes = [
  defineRoute({
    method: 'POST',
    path: '/groups',
    auth: 'org:groups:write',
    summary: 'Create a group (legacy)',
    tags: ['Groups'],
    request: { body: LegacyGroupInput },
    responses: { '200': jsonResponse('Created (not wrapped in `data`)', LegacyGroup) },
    async handle({ service, actor, signal }, { body }) {
      // a missing name is handed on as it came: the service refuses it in its own words
      const group = await service.groups.create(actor, 'public', { name: body.name as string }, { signal })
      return json(legacyGroupToWire(group))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/groups',
    auth: 'org:groups:read',
    summary: 'List groups (legacy)',
    tags: ['Groups'],
    description: 'Newest first, paged by `offset`; the SDK pages until a page comes back empty.',
    request: { query: LegacyGroupListQuery },
    responses: { '200': jsonResponse('Groups (not wrapped in `data`)', LegacyGroupList) },
    async handle({ service, actor, signal }, { query }) {
      const { groups } = await service.groups.list(
        actor,
        'public',
        { nameContains: query.nameContains, offset: query.offset, limit: query.limit ?? 10 },
        { signal },
      )
      return json(groups.map(legacyGroupToWire))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/groups/:id',
    auth: 'org:groups:read',
    summary: 'Get a group (legacy)',
    tags: ['Groups'],
    responses: { '200': jsonResponse('The group (not wrapped in `data`)', LegacyGroup) },
    async handle({ service, actor, signal }, { params }) {
      return json(legacyGroupToWire(await service.groups.get(actor, 'public', params.id, { signal })))
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/groups/:id',
    auth: 'org:groups:write',
    summary: 'Rename a group (legacy)',
    tags: ['Groups'],
    request: { body: LegacyGroupInput },
    responses: { '200': jsonResponse('Renamed (not wrapped in `data`)', LegacyGroup) },
    async handle({ service, actor, signal }, { params, body }) {
      const group = await service.groups.update(actor, 'public', params.id, { name: body.name as string }, { signal })
      return json(legacyGroupToWire(group))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/groups/:id',
    auth: 'org:groups:write',
    summary: 'Delete a group (legacy)',
    tags: ['Groups'],
    description: 'Its files stay, in no group.',
    responses: okText('Deleted'),
    async handle({ service, actor, signal }, { params }) {
      await service.groups.delete(actor, 'public', params.id, { signal })
      return plainText('OK')
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/groups/:id/cids',
    auth: 'org:groups:write',
    summary: 'Add CIDs to a group (legacy)',
    tags: ['Groups'],
    description: 'Every public file of each CID joins the group; nothing changes when a CID names none (404).',
    request: { body: GroupCids },
    responses: okText('Added'),
    async handle({ service, actor, signal }, { params, body }) {
      await service.groups.get(actor, 'public', params.id, { signal })
      for (const fileId of await fileIdsOf(service, actor, body.cids, signal)) {
        await service.groups.addFile(actor, 'public', params.id, fileId, { signal })
      }
      return plainText('OK')
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/groups/:id/cids',
    auth: 'org:groups:write',
    summary: 'Remove CIDs from a group (legacy)',
    tags: ['Groups'],
    description: 'The public files of each CID that are in the group leave it.',
    request: { body: GroupCids },
    responses: okText('Removed'),
    async handle({ service, actor, signal }, { params, body }) {
      await service.groups.get(actor, 'public', params.id, { signal })
      for (const fileId of await fileIdsOf(service, actor, body.cids, signal)) {
        await service.groups.removeFile(actor, 'public', params.id, fileId, { signal })
      }
      return plainText('OK')
    },
  }),
]
