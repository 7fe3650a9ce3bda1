import type { FileRecord } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { CidVersionSchema, Count, DateTime, jsonText, Keyvalues, NetworkSchema, named } from '../../schema.js'
import { FileObject, fileToWire } from '../files/wire.js'

/**
 * What an upload sends (the multipart form of `POST /v3/files` and of signed URLs, the body of
 * upload signing, the legacy `pinFileToIPFS` form) and what it answers.
 */

const FilePart = Type.String({
  contentMediaType: 'application/octet-stream',
  description: 'One part per file; several parts (with paths as file names) make a folder; a CAR with `car=true`',
})

/**
 * The multipart form of `POST /v3/files` and of signed upload URLs; its text fields are also the
 * keys of a tus `Upload-Metadata` header. Fields it does not name (`streamable`, those of newer
 * clients) are accepted and ignored.
 */
export const FileUploadForm = named(
  'FileUpload',
  Type.Object({
    file: FilePart,
    network: Type.Optional(NetworkSchema),
    name: Type.Optional(Type.String({ description: 'Empty: the file name' })),
    group_id: Type.Optional(Type.String({ description: 'Empty: no group' })),
    keyvalues: Type.Optional(jsonText(Keyvalues, { description: 'JSON-encoded object' })),
    cid_version: Type.Optional(CidVersionSchema),
    expires_at: Type.Optional(
      Type.String({
        pattern: '^\\d*$',
        description: 'Unix seconds; empty or 0: never',
        errorMessage: 'must be a unix timestamp in seconds',
      }),
    ),
    car: Type.Optional(Type.Boolean({ description: 'The file is a CAR to store as it is' })),
  }),
)

/**
 * The query of `POST /v3/files` and of a signed URL: options a client may add without breaking a
 * URL's signature (the SDK's `X-Upload-Option-Cid-Version`); multipart fields, read later, win.
 */
export const UploadQuery = Type.Object({
  'X-Upload-Option-Cid-Version': Type.Optional(CidVersionSchema),
})

/** The parameters a signed upload URL carries, all covered by its signature (core checks them together). */
const signedParam = Type.Optional(Type.String())
export const SignedUploadQuery = Type.Object({
  ...UploadQuery.properties,
  'X-Algorithm': signedParam,
  'X-Date': signedParam,
  'X-Expires': signedParam,
  'X-Method': signedParam,
  'X-User-ID': signedParam,
  'X-Grant': signedParam,
  'X-Signature': signedParam,
})

/** Whole seconds (or bytes): integers, or digits as text; `""` or null count as absent. */
const Whole = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^\\d*$' }), Type.Null()], {
    description,
    errorMessage: 'must be a non-negative integer',
  })

const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

/** The upload-signing body of `POST /v3/files/sign`; null stands for a field left out. */
export const UploadSignRequest = named(
  'UploadSignRequest',
  Type.Object({
    expires: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^\\d+$' })], {
      description: 'Seconds the URL stays valid',
      errorMessage: 'must be a non-negative integer',
    }),
    date: Type.Optional(Whole('Unix seconds the URL is signed at; default now')),
    max_file_size: Type.Optional(Whole('Bytes')),
    allow_mime_types: Type.Optional(orNull(Type.Array(Type.String(), { description: 'Wildcards such as `image/*`' }))),
    group_id: Type.Optional(orNull(Type.String())),
    keyvalues: Type.Optional(orNull(Keyvalues)),
    filename: Type.Optional(orNull(Type.String())),
    network: Type.Optional(orNull(NetworkSchema)),
  }),
)

const PinataMetadata = Type.Object({
  name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Empty or null: the file name' })),
  keyvalues: Type.Optional(Type.Union([Keyvalues, Type.Null()])),
})

const PinataOptions = Type.Object({
  cidVersion: Type.Optional(Type.Union([Type.Enum([0, 1, '0', '1']), Type.Null()], { description: 'Default 0' })),
  groupId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})

/** The legacy form: Pinata's v1 field names, JSON in two text fields. */
export const LegacyPinForm = Type.Object({
  file: FilePart,
  pinataMetadata: Type.Optional(jsonText(PinataMetadata, { description: 'JSON `{name, keyvalues}`' })),
  pinataOptions: Type.Optional(jsonText(PinataOptions, { description: 'JSON `{cidVersion, groupId}`' })),
})

export const UploadedFile = named(
  'UploadedFile',
  Type.Intersect([FileObject, Type.Object({ user_id: Type.String(), is_duplicate: Type.Boolean() })]),
)

export function uploadToWire(file: FileRecord, isDuplicate: boolean): Static<typeof UploadedFile> {
  return { ...fileToWire(file), user_id: file.userId, is_duplicate: isDuplicate }
}

/** The answer of the legacy `pinFileToIPFS`, in Pinata's v1 names. */
export const LegacyPin = named(
  'LegacyPin',
  Type.Object({
    ID: Type.String(),
    Name: Type.String(),
    IpfsHash: Type.String(),
    PinSize: Count,
    Timestamp: DateTime,
    NumberOfFiles: Count,
    MimeType: Type.String(),
    GroupId: Type.Union([Type.String(), Type.Null()]),
    Keyvalues: Type.Record(Type.String(), Type.String()),
    isDuplicate: Type.Boolean(),
  }),
)

export function legacyPinToWire(file: FileRecord, isDuplicate: boolean): Static<typeof LegacyPin> {
  return {
    ID: file.id,
    Name: file.name,
    IpfsHash: file.cid,
    PinSize: file.size,
    Timestamp: file.createdAt.toISOString(),
    NumberOfFiles: file.numberOfFiles,
    MimeType: file.mimeType,
    GroupId: file.groupId,
    Keyvalues: file.keyvalues,
    isDuplicate,
  }
}
