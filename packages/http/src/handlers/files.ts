import type { FileUpdate } from '@pinfold/core'
import { readJsonObject } from '../body.js'
import { jsonBody, okData, okNull, pageParams, query, ref } from '../openapi/schemas.js'
import { data } from '../responses.js'
import type { RequestContext, Route } from '../router.js'
import {
  fileToWire,
  parseKeyvalueFilter,
  parseLimit,
  parseNetwork,
  parseOrder,
  parseUnixSeconds,
  uploadToWire,
} from '../wire.js'
import { createResumable, isResumableCreation, uploadItems } from './uploads.js'

async function upload(ctx: RequestContext) {
  if (isResumableCreation(ctx.request)) return createResumable(ctx)
  const { request, service, actor, signal } = ctx
  const { file, isDuplicate } = await service.files.upload(actor, uploadItems(request), { signal })
  return data(uploadToWire(file, isDuplicate))
}

async function list({ url, params, service, actor, signal }: RequestContext) {
  const q = url.searchParams
  const network = parseNetwork(params.network)
  // Every CID is known once an upload returns, so nothing is ever pending.
  if (q.get('cidPending') === 'true') return data({ files: [], next_page_token: '' })
  const group = q.get('group')
  const { files, nextPageToken } = await service.files.list(
    actor,
    network,
    {
      namePrefix: q.get('name') || undefined,
      groupId: group === 'null' ? null : group || undefined,
      cid: q.get('cid') || undefined,
      mimeType: q.get('mimeType') || undefined,
      keyvalues: parseKeyvalueFilter(q),
      limit: parseLimit(q.get('limit')),
      order: parseOrder(q.get('order') ?? q.get('sort')),
      pageToken: q.get('pageToken') || undefined,
    },
    { signal },
  )
  return data({ files: files.map(fileToWire), next_page_token: nextPageToken })
}

async function get({ params, service, actor, signal }: RequestContext) {
  return data(fileToWire(await service.files.get(actor, parseNetwork(params.network), params.id!, { signal })))
}

async function update({ request, params, service, actor, signal }: RequestContext) {
  const network = parseNetwork(params.network)
  const body = await readJsonObject(request)
  // name and keyvalues are handed on as they came: the service checks them
  const update: FileUpdate = {
    name: body.name as string | undefined,
    keyvalues: body.keyvalues as FileUpdate['keyvalues'],
    expiresAt: body.expires_at === undefined ? undefined : parseUnixSeconds(body.expires_at, 'expires_at'),
  }
  const file = await service.files.update(actor, network, params.id!, update, { signal })
  return data(fileToWire(file))
}

async function remove({ params, service, actor, signal }: RequestContext) {
  await service.files.delete(actor, parseNetwork(params.network), params.id!, { signal })
  return data(null)
}

export const fileRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/files',
    auth: 'org:files:write',
    summary: 'Upload a file',
    openapi: {
      tags: ['Files'],
      description:
        'Multipart upload of a file, a folder (several `file` parts) or a CAR; with `Upload-Length` and no multipart body, a tus 1.0 creation.',
      requestBody: { required: true, content: { 'multipart/form-data': { schema: ref('FileUpload') } } },
      responses: {
        ...okData(ref('UploadedFile'), 'Uploaded'),
        '201': {
          description:
            'tus creation (an `Upload-Length` header and no multipart body): the upload URL is in `Location`',
          headers: {
            location: { schema: { type: 'string', format: 'uri' } },
            'upload-offset': { schema: { type: 'string' } },
          },
        },
      },
    },
    handle: upload,
  },
  {
    method: 'GET',
    path: '/v3/files/:network',
    auth: 'org:files:read',
    summary: 'List files',
    openapi: {
      tags: ['Files'],
      description: 'Filter by metadata with `keyvalues[key]=value` (or `metadata[key]=value`).',
      parameters: [
        query('name', undefined, 'Name prefix'),
        query('group', undefined, 'Group id, or `null` for files in no group'),
        query('cid'),
        query('mimeType'),
        query('order', { type: 'string', enum: ['ASC', 'DESC'] }),
        query('cidPending', { type: 'string', enum: ['true', 'false'] }),
        ...pageParams,
      ],
      responses: okData(ref('FileList')),
    },
    handle: list,
  },
  {
    method: 'GET',
    path: '/v3/files/:network/:id',
    auth: 'org:files:read',
    summary: 'Get a file',
    openapi: { tags: ['Files'], responses: okData(ref('File')) },
    handle: get,
  },
  {
    method: 'PUT',
    path: '/v3/files/:network/:id',
    auth: 'org:files:write',
    summary: 'Update a file',
    openapi: { tags: ['Files'], requestBody: jsonBody(ref('FileUpdate')), responses: okData(ref('File')) },
    handle: update,
  },
  {
    method: 'DELETE',
    path: '/v3/files/:network/:id',
    auth: 'org:files:write',
    summary: 'Delete a file',
    openapi: { tags: ['Files'], responses: okNull('Deleted') },
    handle: remove,
  },
]
