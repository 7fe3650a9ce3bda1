import { okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { NetworkSchema } from '../../schema.js'
import {
  CreatedGroup,
  createdGroupToWire,
  GroupInput,
  GroupList,
  GroupListQuery,
  GroupObject,
  GroupUpdate,
  groupToWire,
  isTrue,
} from './wire.js'

const network = { network: NetworkSchema }

export const groupRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/groups/:network',
    auth: 'org:groups:write',
    summary: 'Create a group',
    tags: ['Groups'],
    request: { params: network, body: GroupInput },
    responses: okData(CreatedGroup),
    async handle({ service, actor, signal }, { params, body }) {
      const group = await service.groups.create(
        actor,
        params.network,
        // a missing name is handed on as it came: the service refuses it in its own words
        { name: body.name as string, isPublic: isTrue(body.is_public) },
        { signal },
      )
      return data(createdGroupToWire(group))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/groups/:network',
    auth: 'org:groups:read',
    summary: 'List groups',
    tags: ['Groups'],
    request: { params: network, query: GroupListQuery },
    responses: okData(GroupList),
    async handle({ service, actor, signal }, { params, query }) {
      const { groups, nextPageToken } = await service.groups.list(
        actor,
        params.network,
        {
          namePrefix: query.name,
          isPublic: query.isPublic ?? query.is_public,
          limit: query.limit,
          pageToken: query.pageToken,
        },
        { signal },
      )
      return data({ groups: groups.map(groupToWire), next_page_token: nextPageToken })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/groups/:network/:id',
    auth: 'org:groups:read',
    summary: 'Get a group',
    tags: ['Groups'],
    request: { params: network },
    responses: okData(GroupObject),
    async handle({ service, actor, signal }, { params }) {
      return data(groupToWire(await service.groups.get(actor, params.network, params.id, { signal })))
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/v3/groups/:network/:id',
    auth: 'org:groups:write',
    summary: 'Update a group',
    tags: ['Groups'],
    request: { params: network, body: GroupUpdate },
    responses: okData(GroupObject),
    async handle({ service, actor, signal }, { params, body }) {
      const group = await service.groups.update(
        actor,
        params.network,
        params.id,
        // a missing name is handed on as it came: the service refuses it in its own words
        { name: body.name as string, isPublic: isTrue(body.is_public) },
        { signal },
      )
      return data(groupToWire(group))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/groups/:network/:id',
    auth: 'org:groups:write',
    summary: 'Delete a group',
    tags: ['Groups'],
    request: { params: network },
    responses: okNull('Deleted'),
    async handle({ service, actor, signal }, { params }) {
      await service.groups.delete(actor, params.network, params.id, { signal })
      return data(null)
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/v3/groups/:network/:id/ids/:fileId',
    auth: 'org:groups:write',
    summary: 'Add a file to a group',
    tags: ['Groups'],
    request: { params: network },
    responses: okNull('Added'),
    async handle({ service, actor, signal }, { params }) {
      await service.groups.addFile(actor, params.network, params.id, params.fileId, { signal })
      return data(null)
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/groups/:network/:id/ids/:fileId',
    auth: 'org:groups:write',
    summary: 'Remove a file from a group',
    tags: ['Groups'],
    request: { params: network },
    responses: okNull('Removed'),
    async handle({ service, actor, signal }, { params }) {
      await service.groups.removeFile(actor, params.network, params.id, params.fileId, { signal })
      return data(null)
    },
  }),
]
