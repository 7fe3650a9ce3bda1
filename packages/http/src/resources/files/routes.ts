import type { Actor, FileService, Network } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { NetworkSchema, sortOrder, unixSecondsToDate } from '../../schema.js'
import { createResumable, isResumableCreation } from '../uploads/resumable.js'
import { clientOptions, uploadItems } from '../uploads/upload-items.js'
import { FileUploadForm, UploadedFile, UploadQuery, uploadToWire } from '../uploads/wire.js'
import {
  FileList,
  FileListQuery,
  FileObject,
  FileUpdate,
  fileToWire,
  keyvalueFilter,
  pendingPinToWire,
} from './wire.js'

const network = { network: NetworkSchema }

/** The pending pin-by-CID requests of a list query, as files (`?cidPending=true`). */
async function pendingFiles(
  service: FileService,
  actor: Actor,
  network: Network,
  query: Static<typeof FileListQuery>,
  signal: AbortSignal,
): Promise<Static<typeof FileList>> {
  if (network !== 'public') return { files: [], next_page_token: '' }
  const { requests, nextPageToken } = await service.pins.list(
    actor,
    {
      states: ['queued', 'retrieving'],
      cids: query.cid === undefined ? undefined : [query.cid],
      limit: query.limit,
      order: sortOrder(query.order ?? query.sort),
      pageToken: query.pageToken,
    },
    { signal },
  )
  return { files: requests.map(pendingPinToWire), next_page_token: nextPageToken }
}

export const fileRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/files',
    auth: 'org:files:write',
    summary: 'Upload a file',
    tags: ['Files'],
    description:
      'Multipart upload of a file, a folder (several `file` parts) or a CAR; with `Upload-Length` and no multipart body, a tus 1.0 creation.',
    request: { query: UploadQuery, form: FileUploadForm, formOptional: true },
    responses: {
      ...okData(UploadedFile, 'Uploaded'),
      '201': {
        description: 'tus creation (an `Upload-Length` header and no multipart body): the upload URL is in `Location`',
        headers: {
          location: { schema: Type.String({ format: 'uri' }) },
          'upload-offset': { schema: Type.String() },
        },
      },
    },
    async handle(ctx, { query }) {
      if (isResumableCreation(ctx.request)) return createResumable(ctx, clientOptions(query))
      const { request, service, actor, signal } = ctx
      const { file, isDuplicate } = await service.files.upload(actor, uploadItems(request), { signal })
      return data(uploadToWire(file, isDuplicate))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/files/:network',
    auth: 'org:files:read',
    summary: 'List files',
    tags: ['Files'],
    description: 'Filter by metadata with `keyvalues[key]=value` (or `metadata[key]=value`).',
    request: { params: network, query: FileListQuery },
    responses: okData(FileList),
    async handle({ service, actor, signal }, { params, query }) {
      if (query.cidPending) return data(await pendingFiles(service, actor, params.network, query, signal))
      const { files, nextPageToken } = await service.files.list(
        actor,
        params.network,
        {
          namePrefix: query.name,
          groupId: query.group === 'null' ? null : query.group,
          cid: query.cid,
          mimeType: query.mimeType,
          keyvalues: keyvalueFilter(query.metadata, query.keyvalues),
          limit: query.limit,
          order: sortOrder(query.order ?? query.sort),
          pageToken: query.pageToken,
        },
        { signal },
      )
      return data({ files: files.map(fileToWire), next_page_token: nextPageToken })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/files/:network/:id',
    auth: 'org:files:read',
    summary: 'Get a file',
    tags: ['Files'],
    request: { params: network },
    responses: okData(FileObject),
    async handle({ service, actor, signal }, { params }) {
      return data(fileToWire(await service.files.get(actor, params.network, params.id, { signal })))
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/v3/files/:network/:id',
    auth: 'org:files:write',
    summary: 'Update a file',
    tags: ['Files'],
    request: { params: network, body: FileUpdate },
    responses: okData(FileObject),
    async handle({ service, actor, signal }, { params, body }) {
      const file = await service.files.update(
        actor,
        params.network,
        params.id,
        {
          name: body.name,
          keyvalues: body.keyvalues,
          expiresAt: body.expires_at === undefined ? undefined : unixSecondsToDate(body.expires_at),
        },
        { signal },
      )
      return data(fileToWire(file))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/files/:network/:id',
    auth: 'org:files:write',
    summary: 'Delete a file',
    tags: ['Files'],
    request: { params: network },
    responses: okNull('Deleted'),
    async handle({ service, actor, signal }, { params }) {
      await service.files.delete(actor, params.network, params.id, { signal })
      return data(null)
    },
  }),
]
