import { invalid } from '@pinfold/core'
import { readJsonObject } from '../body.js'
import { jsonBody, okData, okNull, pageParams, query, ref } from '../openapi/schemas.js'
import { data } from '../responses.js'
import type { RequestContext, Route } from '../router.js'
import { groupToWire, parseBoolean, parseLimit, parseNetwork } from '../wire.js'

const optionalBoolean = (value: unknown, field: string) =>
  value === undefined ? undefined : parseBoolean(value, field)

async function create({ request, params, service, actor, signal }: RequestContext) {
  const body = await readJsonObject(request)
  // the name is handed on as it came: the service checks it
  const input = { name: body.name as string, isPublic: optionalBoolean(body.is_public, 'is_public') }
  const group = await service.groups.create(actor, parseNetwork(params.network), input, { signal })
  // The spec names visibility `public` in this one response; `is_public` is kept for clients typed on the rest.
  return data({ ...groupToWire(group), public: group.isPublic })
}

async function list({ url, params, service, actor, signal }: RequestContext) {
  const q = url.searchParams
  const isPublic = q.get('isPublic') ?? q.get('is_public')
  const query = {
    namePrefix: q.get('name') || undefined,
    isPublic: isPublic === null || isPublic === '' ? undefined : parseBoolean(isPublic, 'isPublic'),
    limit: parseLimit(q.get('limit')),
    pageToken: q.get('pageToken') || undefined,
  }
  const { groups, nextPageToken } = await service.groups.list(actor, parseNetwork(params.network), query, { signal })
  return data({ groups: groups.map(groupToWire), next_page_token: nextPageToken })
}

async function get({ params, service, actor, signal }: RequestContext) {
  return data(groupToWire(await service.groups.get(actor, parseNetwork(params.network), params.id!, { signal })))
}

async function update({ request, params, service, actor, signal }: RequestContext) {
  const body = await readJsonObject(request)
  if (body.name === undefined && body.is_public === undefined)
    throw invalid('nothing to update: give name or is_public')
  const update = { name: body.name as string | undefined, isPublic: optionalBoolean(body.is_public, 'is_public') }
  const group = await service.groups.update(actor, parseNetwork(params.network), params.id!, update, { signal })
  return data(groupToWire(group))
}

async function remove({ params, service, actor, signal }: RequestContext) {
  await service.groups.delete(actor, parseNetwork(params.network), params.id!, { signal })
  return data(null)
}

async function addFile({ params, service, actor, signal }: RequestContext) {
  await service.groups.addFile(actor, parseNetwork(params.network), params.id!, params.fileId!, { signal })
  return data(null)
}

async function removeFile({ params, service, actor, signal }: RequestContext) {
  await service.groups.removeFile(actor, parseNetwork(params.network), params.id!, params.fileId!, { signal })
  return data(null)
}

export const groupRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/groups/:network',
    auth: 'org:groups:write',
    summary: 'Create a group',
    openapi: { tags: ['Groups'], requestBody: jsonBody(ref('GroupInput')), responses: okData(ref('CreatedGroup')) },
    handle: create,
  },
  {
    method: 'GET',
    path: '/v3/groups/:network',
    auth: 'org:groups:read',
    summary: 'List groups',
    openapi: {
      tags: ['Groups'],
      parameters: [
        query('name', undefined, 'Name prefix'),
        query('isPublic', { type: 'string', enum: ['true', 'false'] }),
        ...pageParams,
      ],
      responses: okData(ref('GroupList')),
    },
    handle: list,
  },
  {
    method: 'GET',
    path: '/v3/groups/:network/:id',
    auth: 'org:groups:read',
    summary: 'Get a group',
    openapi: { tags: ['Groups'], responses: okData(ref('Group')) },
    handle: get,
  },
  {
    method: 'PUT',
    path: '/v3/groups/:network/:id',
    auth: 'org:groups:write',
    summary: 'Update a group',
    openapi: { tags: ['Groups'], requestBody: jsonBody(ref('GroupInput')), responses: okData(ref('Group')) },
    handle: update,
  },
  {
    method: 'DELETE',
    path: '/v3/groups/:network/:id',
    auth: 'org:groups:write',
    summary: 'Delete a group',
    openapi: { tags: ['Groups'], responses: okNull('Deleted') },
    handle: remove,
  },
  {
    method: 'PUT',
    path: '/v3/groups/:network/:id/ids/:fileId',
    auth: 'org:groups:write',
    summary: 'Add a file to a group',
    openapi: { tags: ['Groups'], responses: okNull('Added') },
    handle: addFile,
  },
  {
    method: 'DELETE',
    path: '/v3/groups/:network/:id/ids/:fileId',
    auth: 'org:groups:write',
    summary: 'Remove a file from a group',
    openapi: { tags: ['Groups'], responses: okNull('Removed') },
    handle: removeFile,
  },
]
