import { invalid, isNetwork, type UploadGrant, type UploadItem, type UploadOptions } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { binaryString, fromBase64 } from '../bytes.js'
import { parseMultipart } from '../multipart.js'
import { jsonResponse, LegacyPin, okData, UploadedFile } from '../openapi/schemas.js'
import { formField } from '../request-input.js'
import { data, json } from '../responses.js'
import { defineRoute, type RequestContext } from '../router.js'
import { CidVersionSchema, jsonText, Keyvalues, NetworkSchema, named } from '../schema.js'
import { unixSecondsToDate, uploadToWire } from '../wire.js'

/**
 * Everything beyond a single multipart file: signed upload URLs, resumable (tus 1.0) uploads,
 * folder uploads on the legacy `pinFileToIPFS`, and the `POST /v3/files/sign` dispatcher.
 * (Folders and CARs on `POST /v3/files` go through the ordinary upload handler: core tells them apart.)
 */

const TUS_VERSION = '1.0.0'
/** Query parameters a client may add to a signed URL (the SDK adds the CID version); not signed. */
const CLIENT_OPTION_PARAM = /^X-Upload-Option-/i

/** `POST /v3/files` (or a signed URL) with `Upload-Length` and no multipart body is a tus creation. */
export function isResumableCreation(request: Request): boolean {
  const type = request.headers.get('content-type') ?? ''
  return request.headers.has('upload-length') && !/^multipart\//i.test(type)
}

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

/** One text field of {@link FileUploadForm} (or tus metadata entry), as upload options. */
export function uploadFieldToOptions(name: string, value: string): Partial<UploadOptions> | undefined {
  const form = FileUploadForm
  switch (name) {
    case 'network':
      return { network: formField(form, name, value) }
    case 'name':
      return value === '' ? {} : { name: formField(form, name, value) }
    case 'group_id':
      return { groupId: value === '' ? null : formField(form, name, value) }
    case 'keyvalues':
      // core keeps numbers and booleans as their text
      return { keyvalues: formField(form, name, value) as UploadOptions['keyvalues'] }
    case 'cid_version':
      return { cidVersion: formField(form, name, value) }
    case 'expires_at':
      return { expiresAt: unixSecondsToDate(formField(form, name, value)) }
    case 'car':
      return { car: formField(form, name, value) }
    default:
      return undefined
  }
}

/** Multipart parts as upload items: `file` parts carry bytes, known fields become options. */
export async function* uploadItems(request: Request): AsyncGenerator<UploadItem> {
  for await (const part of parseMultipart(request)) {
    if (part.kind === 'file') {
      if (part.name !== 'file') continue
      yield { kind: 'file', path: part.filename, mimeType: part.mimeType, content: part.content }
    } else {
      const options = uploadFieldToOptions(part.name, part.value)
      if (options) yield { kind: 'options', options }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// POST /v3/files/sign (upload bodies)
// ---------------------------------------------------------------------------------------------

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

const wholeNumber = (value: number | string | null | undefined) =>
  value === undefined || value === null || value === '' ? undefined : Number(value)

/**
 * Upload signing for `POST /v3/files/sign` (the route lives in `files-sign.ts`, which answers
 * download-link bodies itself and hands every other body here).
 */
export async function signUpload(
  { service, actor, publicUrl, signal }: RequestContext,
  body: Static<typeof UploadSignRequest>,
) {
  const signed = await service.uploads.signed.sign(
    actor,
    {
      date: wholeNumber(body.date),
      expires: Number(body.expires),
      maxFileSize: wholeNumber(body.max_file_size),
      allowMimeTypes: body.allow_mime_types ?? undefined,
      groupId: body.group_id ?? undefined,
      keyvalues: body.keyvalues ?? undefined,
      filename: body.filename ?? undefined,
      network: body.network ?? undefined,
    },
    { signal },
  )
  return data(`${publicUrl}${signed.path}?${signed.query}`)
}

// ---------------------------------------------------------------------------------------------
// Signed upload URL: POST /v3/files/{id}?X-…&X-Signature=…
// ---------------------------------------------------------------------------------------------

/**
 * The query of `POST /v3/files` and of a signed URL: options a client may add without breaking a
 * URL's signature (the SDK's `X-Upload-Option-Cid-Version`); multipart fields, read later, win.
 */
export const UploadQuery = Type.Object({
  'X-Upload-Option-Cid-Version': Type.Optional(CidVersionSchema),
})

export const clientOptions = (query: Static<typeof UploadQuery>): Partial<UploadOptions> => {
  const cidVersion = query['X-Upload-Option-Cid-Version']
  return cidVersion === undefined ? {} : { cidVersion }
}

/** The parameters a signed upload URL carries, all covered by its signature (core checks them together). */
const signedParam = Type.Optional(Type.String())
const SignedUploadQuery = Type.Object({
  ...UploadQuery.properties,
  'X-Algorithm': signedParam,
  'X-Date': signedParam,
  'X-Expires': signedParam,
  'X-Method': signedParam,
  'X-User-ID': signedParam,
  'X-Grant': signedParam,
  'X-Signature': signedParam,
})

function verifyGrant({ service, url }: RequestContext, id: string): UploadGrant {
  const signed = new URLSearchParams([...url.searchParams].filter(([name]) => !CLIENT_OPTION_PARAM.test(name)))
  return service.uploads.signed.verify(`/v3/files/${id}`, signed)
}

async function* withOptions(
  options: Partial<UploadOptions>,
  items: AsyncIterable<UploadItem>,
): AsyncGenerator<UploadItem> {
  yield { kind: 'options', options }
  yield* items
}

// ---------------------------------------------------------------------------------------------
// tus 1.0: creation (POST /v3/files with Upload-Length, or a signed URL), PATCH, HEAD, DELETE
// ---------------------------------------------------------------------------------------------

/** `Upload-Metadata`: `key base64,key base64,…`. Values are UTF-8, or Latin-1 from the SDK's `btoa`. */
export function parseUploadMetadata(header: string | null): Map<string, string> {
  const out = new Map<string, string>()
  if (!header) return out
  for (const pair of header.split(',')) {
    const [key, value = '', ...extra] = pair.trim().split(/ +/)
    if (!key) continue
    const bytes = extra.length > 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) ? undefined : fromBase64(value)
    if (!bytes) throw invalid(`Upload-Metadata ${key} is not base64`)
    out.set(key, decodeText(bytes))
  }
  return out
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes)
  } catch {
    return binaryString(bytes)
  }
}

function parseNonNegative(value: string | null, header: string): number {
  if (value === null || !/^\d{1,16}$/.test(value.trim())) throw invalid(`${header} must be a non-negative integer`)
  return Number(value)
}

interface TusParams {
  id: string
  token: string
}

function tusHeaders(extra: Record<string, string> = {}): Headers {
  return new Headers({ 'tus-resumable': TUS_VERSION, 'cache-control': 'no-store', ...extra })
}

/** tus creation. Handles `POST /v3/files` when {@link isResumableCreation} says so. */
export async function createResumable(
  ctx: RequestContext,
  fromQuery: Partial<UploadOptions>,
  grant?: UploadGrant,
): Promise<Response> {
  const { request, service, publicUrl } = ctx
  if (request.headers.has('upload-defer-length')) throw invalid('Upload-Defer-Length is not supported')
  const length = parseNonNegative(request.headers.get('upload-length'), 'Upload-Length')
  const metadata = parseUploadMetadata(request.headers.get('upload-metadata'))
  let options: Partial<UploadOptions> = {}
  for (const [key, value] of metadata) {
    if (key === 'filename' || key === 'filetype') continue
    options = { ...options, ...uploadFieldToOptions(key, value) }
  }
  options = { ...options, ...fromQuery }
  const session = await service.uploads.create(
    grant?.actor ?? ctx.actor,
    {
      length,
      fileName: metadata.get('filename'),
      mimeType: metadata.get('filetype'),
      options,
      constraints: grant?.constraints,
    },
    { signal: ctx.signal },
  )
  // absolute: the SDK fetch()es it as it is. `…/files/{id}/{token}` suits both the SDK and files-cli.
  const location = `${publicUrl}/v3/files/${session.id}/${session.token}`
  return new Response(null, {
    status: 201,
    headers: tusHeaders({
      location,
      'upload-offset': '0',
      'upload-expires': session.expiresAt.toUTCString(),
    }),
  })
}

async function patch({ request, service, signal }: RequestContext, params: TusParams) {
  const offset = parseNonNegative(request.headers.get('upload-offset'), 'Upload-Offset')
  const body: AsyncIterable<Uint8Array> = request.body ?? (async function* () {})()
  const result = await service.uploads.append(params.id, params.token, offset, body, { signal })
  const headers = tusHeaders({
    'upload-offset': String(result.offset),
    'upload-expires': result.expiresAt.toUTCString(),
  })
  if (result.result) {
    headers.set('upload-cid', result.result.file.cid)
    headers.set('upload-file-id', result.result.file.id)
  }
  return new Response(null, { status: 204, headers })
}

async function head({ service, signal }: RequestContext, params: TusParams) {
  const status = await service.uploads.status(params.id, params.token, { signal })
  return new Response(null, {
    status: 200,
    headers: tusHeaders({
      'upload-offset': String(status.offset),
      'upload-length': String(status.length),
      'upload-expires': status.expiresAt.toUTCString(),
    }),
  })
}

async function terminate({ service, signal }: RequestContext, params: TusParams) {
  await service.uploads.terminate(params.id, params.token, { signal })
  return new Response(null, { status: 204, headers: tusHeaders() })
}

// ---------------------------------------------------------------------------------------------
// Legacy POST /pinning/pinFileToIPFS (folders and single files; answer not wrapped in `data`)
// ---------------------------------------------------------------------------------------------

const PinataMetadata = Type.Object({
  name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Empty or null: the file name' })),
  keyvalues: Type.Optional(Type.Union([Keyvalues, Type.Null()])),
})

const PinataOptions = Type.Object({
  cidVersion: Type.Optional(Type.Union([Type.Enum([0, 1, '0', '1']), Type.Null()], { description: 'Default 0' })),
  groupId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})

/** The legacy form: Pinata's v1 field names, JSON in two text fields. */
const LegacyPinForm = Type.Object({
  file: FilePart,
  pinataMetadata: Type.Optional(jsonText(PinataMetadata, { description: 'JSON `{name, keyvalues}`' })),
  pinataOptions: Type.Optional(jsonText(PinataOptions, { description: 'JSON `{cidVersion, groupId}`' })),
})

async function* legacyItems(request: Request): AsyncGenerator<UploadItem> {
  // the legacy API pins to public IPFS, with CIDv0 unless pinataOptions.cidVersion says otherwise
  yield { kind: 'options', options: { network: 'public', cidVersion: 'v0' } }
  for await (const part of parseMultipart(request)) {
    if (part.kind === 'file') {
      if (part.name !== 'file') continue
      yield { kind: 'file', path: part.filename, mimeType: part.mimeType, content: part.content }
    } else if (part.name === 'pinataMetadata' && part.value !== '') {
      const { name, keyvalues } = formField(LegacyPinForm, 'pinataMetadata', part.value)
      const options: Partial<UploadOptions> = {}
      if (name) options.name = name
      if (keyvalues) options.keyvalues = keyvalues as UploadOptions['keyvalues']
      yield { kind: 'options', options }
    } else if (part.name === 'pinataOptions' && part.value !== '') {
      const { cidVersion, groupId } = formField(LegacyPinForm, 'pinataOptions', part.value)
      const options: Partial<UploadOptions> = {}
      if (cidVersion !== undefined && cidVersion !== null) options.cidVersion = Number(cidVersion) === 0 ? 'v0' : 'v1'
      if (groupId) options.groupId = groupId
      yield { kind: 'options', options }
    }
  }
}

async function pinFileToIPFS({ request, service, actor, signal }: RequestContext) {
  const { file, isDuplicate } = await service.files.upload(actor, legacyItems(request), { signal })
  return json({
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
  })
}

// ---------------------------------------------------------------------------------------------

/** `/v3/files/{x}/…` is a file route when `x` is a network; otherwise an upload id. */
const notNetwork = (params: Record<string, string>) => !isNetwork(params.id)

/** An upload id: anything but a network name (those paths are file routes). */
const uploadId = { id: Type.String({ not: NetworkSchema }) }

const tusHeader = { 'tus-resumable': { schema: Type.Literal('1.0.0') }, 'upload-offset': { schema: Type.String() } }

export const uploadRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/files/:id',
    auth: 'public',
    summary: 'Upload through a signed URL (multipart or tus creation)',
    tags: ['Uploads'],
    description:
      'The URL returned by `POST /v3/files/sign`: a multipart upload, or a tus creation with `Upload-Length`.',
    when: notNetwork,
    request: { params: uploadId, query: SignedUploadQuery, form: FileUploadForm, formOptional: true },
    responses: {
      ...okData(UploadedFile, 'Uploaded'),
      '201': { description: 'tus upload created; its URL is in `Location`' },
    },
    async handle(ctx, { params, query }) {
      // checked before a single byte is read; the bearer token (often empty from the SDK) is ignored
      const grant = verifyGrant(ctx, params.id)
      if (isResumableCreation(ctx.request)) return createResumable(ctx, clientOptions(query), grant)
      const { file, isDuplicate } = await ctx.service.files.upload(
        grant.actor,
        withOptions(clientOptions(query), uploadItems(ctx.request)),
        { signal: ctx.signal, constraints: grant.constraints },
      )
      return data(uploadToWire(file, isDuplicate))
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v3/files/:id/:token',
    auth: 'public',
    summary: 'Append to a resumable upload',
    tags: ['Uploads'],
    when: notNetwork,
    request: { params: uploadId, stream: { mediaType: 'application/offset+octet-stream' } },
    responses: {
      '204': { description: 'Appended; `Upload-Cid` and `Upload-File-Id` once complete', headers: tusHeader },
    },
    handle: (ctx, { params }) => patch(ctx, params),
  }),
  defineRoute({
    method: 'HEAD',
    path: '/v3/files/:id/:token',
    auth: 'public',
    summary: 'Offset of a resumable upload',
    tags: ['Uploads'],
    when: notNetwork,
    request: { params: uploadId },
    responses: { '200': { description: 'Offset and length in headers', headers: tusHeader } },
    handle: (ctx, { params }) => head(ctx, params),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/files/:id/:token',
    auth: 'public',
    summary: 'Terminate a resumable upload',
    tags: ['Uploads'],
    when: notNetwork,
    request: { params: uploadId },
    responses: { '204': { description: 'Terminated' } },
    handle: (ctx, { params }) => terminate(ctx, params),
  }),
  defineRoute({
    method: 'POST',
    path: '/pinning/pinFileToIPFS',
    auth: 'org:files:write',
    summary: 'Pin a file or folder (legacy)',
    tags: ['Uploads'],
    request: { form: LegacyPinForm },
    responses: { '200': jsonResponse('Pinned (not wrapped in `data`)', LegacyPin) },
    handle: pinFileToIPFS,
  }),
]
