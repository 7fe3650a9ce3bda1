import type { Actor, FileService, Network } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { FileList, FileObject, okData, okNull, UploadedFile } from '../openapi/schemas.js'
import { data } from '../responses.js'
import { defineRoute } from '../router.js'
import { KeyvaluePatch, NetworkSchema, named, pageQuery } from '../schema.js'
import { fileToWire, keyvalueFilter, sortOrder, unixSecondsToDate, uploadToWire } from '../wire.js'
import {
  clientOptions,
  createResumable,
  FileUploadForm,
  isResumableCreation,
  UploadQuery,
  uploadItems,
} from './uploads.js'

const network = { network: NetworkSchema }

const ORDERS = ['ASC', 'DESC', 'DSC', 'asc', 'desc', 'dsc'] as const

const FileListQuery = Type.Object({
  name: Type.Optional(Type.String({ description: 'Name prefix' })),
  group: Type.Optional(Type.String({ description: 'Group id, or `null` for files in no group' })),
  cid: Type.Optional(Type.String()),
  mimeType: Type.Optional(Type.String()),
  keyvalues: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'Metadata filter: `keyvalues[key]=value`' }),
  ),
  metadata: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: "The same filter in the spelling of Pinata's OpenAPI: `metadata[key]=value`",
    }),
  ),
  order: Type.Optional(Type.Enum(ORDERS, { description: '`DSC` is `DESC`' })),
  sort: Type.Optional(Type.Enum(ORDERS, { description: "The SDK's spelling of `order`" })),
  cidPending: Type.Optional(
    Type.Boolean({
      description:
        'Files still being pinned by CID (queued or retrieving), as the queue lists them; with `cid`, only that CID',
    }),
  ),
  ...pageQuery,
})

export const FileUpdate = named(
  'FileUpdate',
  Type.Object({
    name: Type.Optional(Type.String()),
    keyvalues: Type.Optional(KeyvaluePatch),
    expires_at: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^\\d*$' }), Type.Null()], {
        description: 'Unix seconds; null or 0 clears',
        errorMessage: 'must be a unix timestamp in seconds (null or 0 clears it)',
      }),
    ),
  }),
)

/**
 * Pin-by-CID requests still running, in the file shape: the file they become will have their id.
 * An upload knows its CID when it returns, so only pins are ever pending, and only on the public network.
 */
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
      cid: query.cid,
      limit: query.limit,
      order: sortOrder(query.order ?? query.sort),
      pageToken: query.pageToken,
    },
    { signal },
  )
  const files = requests.map((request) => ({
    id: request.id,
    name: request.name,
    cid: request.cid,
    size: 0,
    number_of_files: 0,
    mime_type: '',
    group_id: request.groupId,
    keyvalues: request.keyvalues,
    created_at: request.createdAt.toISOString(),
    expires_at: null,
    network: 'public' as const,
    vectorized: false,
  }))
  return { files, next_page_token: nextPageToken }
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
