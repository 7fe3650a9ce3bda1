import type { FileRecord, PinRequestRecord } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { Count, DateTime, KeyvaluePatch, NetworkSchema, named, ORDERS, pageQuery } from '../../schema.js'

/** A file on the wire: the spec's snake_case names, ISO 8601 UTC timestamps, `expires_at` in Unix seconds. */
export const FileObject = named(
  'File',
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    cid: Type.String(),
    size: Count,
    number_of_files: Count,
    mime_type: Type.String(),
    group_id: Type.Union([Type.String(), Type.Null()]),
    keyvalues: Type.Record(Type.String(), Type.String(), { description: 'Free-form metadata' }),
    created_at: DateTime,
    expires_at: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Unix seconds; null when the file never expires',
    }),
    network: NetworkSchema,
    vectorized: Type.Boolean(),
  }),
)

/** A file as the API sends it, for TypeScript clients of the API (the CLI's `pinfold files`). */
export type WireFile = Static<typeof FileObject>

export const FileList = named(
  'FileList',
  Type.Object({
    files: Type.Array(FileObject),
    next_page_token: Type.String({ description: 'Empty on the last page' }),
  }),
)

/** A page of files as `GET /v3/files/{network}` sends it (in `data`). */
export type WireFileList = Static<typeof FileList>

export const FileListQuery = Type.Object({
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

export function fileToWire(file: FileRecord): Static<typeof FileObject> {
  return {
    id: file.id,
    name: file.name,
    cid: file.cid,
    size: file.size,
    number_of_files: file.numberOfFiles,
    mime_type: file.mimeType,
    group_id: file.groupId,
    keyvalues: file.keyvalues,
    created_at: file.createdAt.toISOString(),
    expires_at: file.expiresAt ? Math.floor(file.expiresAt.getTime() / 1000) : null,
    network: file.network,
    vectorized: file.vectorized,
  }
}

/**
 * A pin-by-CID request still running, in the file shape: the file it becomes will have its id.
 * Only pins are ever pending (an upload knows its CID when it returns), and only on the public network.
 */
export function pendingPinToWire(request: PinRequestRecord): Static<typeof FileObject> {
  return {
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
    network: 'public',
    vectorized: false,
  }
}

/** `{…metadata, …keyvalues}` of a list query, or `undefined` when neither filters. */
export function keyvalueFilter(...filters: (Record<string, string> | undefined)[]): Record<string, string> | undefined {
  const merged = Object.assign({}, ...filters.filter(Boolean)) as Record<string, string>
  return Object.keys(merged).length > 0 ? merged : undefined
}
