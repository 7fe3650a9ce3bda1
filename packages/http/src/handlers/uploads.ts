import {
  invalid,
  isCidVersion,
  isNetwork,
  type SignUploadRequest,
  type UploadGrant,
  type UploadItem,
  type UploadOptions,
} from '@pinfold/core'
import { binaryString, fromBase64 } from '../bytes.js'
import { parseMultipart } from '../multipart.js'
import { jsonResponse, okData, ref, schemas } from '../openapi/schemas.js'
import { data, json } from '../responses.js'
import type { RequestContext, Route } from '../router.js'
import { parseJsonField, uploadFieldToOptions, uploadToWire } from '../wire.js'

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

/**
 * Upload signing for `POST /v3/files/sign` (the route lives in `files-sign.ts`, which answers
 * download-link bodies itself and hands every other body here).
 */
export async function signUpload({ service, actor, publicUrl }: RequestContext, body: Record<string, unknown>) {
  const signed = await service.uploads.signed.sign(actor, parseSignRequest(body))
  return data(`${publicUrl}${signed.path}?${signed.query}`)
}

function parseSignRequest(body: Record<string, unknown>): SignUploadRequest {
  const integer = (value: unknown, field: string): number | undefined => {
    if (value === undefined || value === null || value === '') return undefined
    const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw invalid(`${field} must be an integer`)
    return n
  }
  const expires = integer(body.expires, 'expires')
  if (expires === undefined) throw invalid('expires is required (seconds the URL stays valid)')
  const mimeTypes = body.allow_mime_types
  if (mimeTypes !== undefined && mimeTypes !== null && !Array.isArray(mimeTypes))
    throw invalid('allow_mime_types must be an array of strings')
  const network = body.network
  if (network !== undefined && network !== null && !isNetwork(network))
    throw invalid('network must be "public" or "private"')
  const optionalString = (value: unknown, field: string) => {
    if (value === undefined || value === null) return undefined
    if (typeof value !== 'string') throw invalid(`${field} must be a string`)
    return value
  }
  return {
    date: integer(body.date, 'date'),
    expires,
    maxFileSize: integer(body.max_file_size, 'max_file_size'),
    allowMimeTypes: (mimeTypes ?? undefined) as string[] | undefined,
    groupId: optionalString(body.group_id, 'group_id'),
    keyvalues: (body.keyvalues ?? undefined) as Record<string, unknown> | undefined,
    filename: optionalString(body.filename, 'filename'),
    network: network ?? undefined,
  }
}

// ---------------------------------------------------------------------------------------------
// Signed upload URL: POST /v3/files/{id}?X-…&X-Signature=…
// ---------------------------------------------------------------------------------------------

function verifyGrant({ service, params, url }: RequestContext): UploadGrant {
  const signed = new URLSearchParams([...url.searchParams].filter(([name]) => !CLIENT_OPTION_PARAM.test(name)))
  return service.uploads.signed.verify(`/v3/files/${params.id}`, signed)
}

async function signedUpload(ctx: RequestContext) {
  // checked before a single byte is read; the bearer token (often empty from the SDK) is ignored
  const grant = verifyGrant(ctx)
  if (isResumableCreation(ctx.request)) return createResumable(ctx, grant)
  const { file, isDuplicate } = await ctx.service.files.upload(
    grant.actor,
    withOptions(queryOptions(ctx.url), uploadItems(ctx.request)),
    { signal: ctx.signal, constraints: grant.constraints },
  )
  return data(uploadToWire(file, isDuplicate))
}

/**
 * Options a client may add to a signed URL's query without breaking its signature (the SDK's
 * `X-Upload-Option-Cid-Version`); the multipart fields, which come later, win over them.
 */
function queryOptions(url: URL): Partial<UploadOptions> {
  const cidVersion = url.searchParams.get('X-Upload-Option-Cid-Version')
  if (cidVersion === null) return {}
  if (!isCidVersion(cidVersion)) throw invalid('X-Upload-Option-Cid-Version must be "v0", "v1" or "unixfs-v1-2025"')
  return { cidVersion }
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

function tusHeaders(extra: Record<string, string> = {}): Headers {
  return new Headers({ 'tus-resumable': TUS_VERSION, 'cache-control': 'no-store', ...extra })
}

/** tus creation. Handles `POST /v3/files` when {@link isResumableCreation} says so. */
export async function createResumable(ctx: RequestContext, grant?: UploadGrant): Promise<Response> {
  const { request, url, service, publicUrl } = ctx
  if (request.headers.has('upload-defer-length')) throw invalid('Upload-Defer-Length is not supported')
  const length = parseNonNegative(request.headers.get('upload-length'), 'Upload-Length')
  const metadata = parseUploadMetadata(request.headers.get('upload-metadata'))
  let options: Partial<UploadOptions> = {}
  for (const [key, value] of metadata) {
    if (key === 'filename' || key === 'filetype') continue
    options = { ...options, ...uploadFieldToOptions(key, value) }
  }
  options = { ...options, ...queryOptions(url) }
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

async function patch({ request, params, service, signal }: RequestContext) {
  const offset = parseNonNegative(request.headers.get('upload-offset'), 'Upload-Offset')
  const body: AsyncIterable<Uint8Array> = request.body ?? (async function* () {})()
  const result = await service.uploads.append(params.id!, params.token!, offset, body, { signal })
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

async function head({ params, service, signal }: RequestContext) {
  const status = await service.uploads.status(params.id!, params.token!, { signal })
  return new Response(null, {
    status: 200,
    headers: tusHeaders({
      'upload-offset': String(status.offset),
      'upload-length': String(status.length),
      'upload-expires': status.expiresAt.toUTCString(),
    }),
  })
}

async function terminate({ params, service, signal }: RequestContext) {
  await service.uploads.terminate(params.id!, params.token!, { signal })
  return new Response(null, { status: 204, headers: tusHeaders() })
}

// ---------------------------------------------------------------------------------------------
// Legacy POST /pinning/pinFileToIPFS (folders and single files; answer not wrapped in `data`)
// ---------------------------------------------------------------------------------------------

async function* legacyItems(request: Request): AsyncGenerator<UploadItem> {
  // the legacy API pins to public IPFS, with CIDv0 unless pinataOptions.cidVersion says otherwise
  yield { kind: 'options', options: { network: 'public', cidVersion: 'v0' } }
  for await (const part of parseMultipart(request)) {
    if (part.kind === 'file') {
      if (part.name !== 'file') continue
      yield { kind: 'file', path: part.filename, mimeType: part.mimeType, content: part.content }
    } else if (part.name === 'pinataMetadata' && part.value !== '') {
      yield { kind: 'options', options: legacyMetadata(parseJsonField(part.value, 'pinataMetadata')) }
    } else if (part.name === 'pinataOptions' && part.value !== '') {
      yield { kind: 'options', options: legacyOptions(parseJsonField(part.value, 'pinataOptions')) }
    }
  }
}

function legacyMetadata(value: unknown): Partial<UploadOptions> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('pinataMetadata must be a JSON object')
  const { name, keyvalues } = value as { name?: unknown; keyvalues?: unknown }
  const out: Partial<UploadOptions> = {}
  if (name !== undefined && name !== null && name !== '') {
    if (typeof name !== 'string') throw invalid('pinataMetadata.name must be a string')
    out.name = name
  }
  if (keyvalues !== undefined && keyvalues !== null) out.keyvalues = keyvalues as UploadOptions['keyvalues']
  return out
}

function legacyOptions(value: unknown): Partial<UploadOptions> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('pinataOptions must be a JSON object')
  const { cidVersion, groupId } = value as { cidVersion?: unknown; groupId?: unknown }
  const out: Partial<UploadOptions> = {}
  if (cidVersion !== undefined && cidVersion !== null) {
    if (cidVersion === 0 || cidVersion === '0') out.cidVersion = 'v0'
    else if (cidVersion === 1 || cidVersion === '1') out.cidVersion = 'v1'
    else throw invalid('pinataOptions.cidVersion must be 0 or 1')
  }
  if (groupId !== undefined && groupId !== null && groupId !== '') {
    if (typeof groupId !== 'string') throw invalid('pinataOptions.groupId must be a string')
    out.groupId = groupId
  }
  return out
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
const uploadId = { type: 'string', not: { enum: ['public', 'private'] } }

export const uploadRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/files/:id',
    auth: 'public',
    summary: 'Upload through a signed URL (multipart or tus creation)',
    when: notNetwork,
    openapi: {
      tags: ['Uploads'],
      description:
        'The URL returned by `POST /v3/files/sign`: a multipart upload, or a tus creation with `Upload-Length`.',
      pathParameters: { id: { schema: uploadId } },
      responses: {
        ...okData(ref('UploadedFile'), 'Uploaded'),
        '201': { description: 'tus upload created; its URL is in `Location`' },
      },
      requestBody: { content: { 'multipart/form-data': { schema: ref('FileUpload') } } },
    },
    handle: signedUpload,
  },
  {
    method: 'PATCH',
    path: '/v3/files/:id/:token',
    auth: 'public',
    summary: 'Append to a resumable upload',
    when: notNetwork,
    openapi: {
      tags: ['Uploads'],
      pathParameters: { id: { schema: uploadId } },
      requestBody: { required: true, content: { 'application/offset+octet-stream': { schema: { type: 'string' } } } },
      responses: {
        '204': {
          description: 'Appended; `Upload-Cid` and `Upload-File-Id` once complete',
          headers: { 'tus-resumable': { schema: { const: '1.0.0' } }, 'upload-offset': { schema: { type: 'string' } } },
        },
      },
    },
    handle: patch,
  },
  {
    method: 'HEAD',
    path: '/v3/files/:id/:token',
    auth: 'public',
    summary: 'Offset of a resumable upload',
    when: notNetwork,
    openapi: {
      tags: ['Uploads'],
      pathParameters: { id: { schema: uploadId } },
      responses: {
        '200': {
          description: 'Offset and length in headers',
          headers: { 'tus-resumable': { schema: { const: '1.0.0' } }, 'upload-offset': { schema: { type: 'string' } } },
        },
      },
    },
    handle: head,
  },
  {
    method: 'DELETE',
    path: '/v3/files/:id/:token',
    auth: 'public',
    summary: 'Terminate a resumable upload',
    when: notNetwork,
    openapi: {
      tags: ['Uploads'],
      pathParameters: { id: { schema: uploadId } },
      responses: { '204': { description: 'Terminated' } },
    },
    handle: terminate,
  },
  {
    method: 'POST',
    path: '/pinning/pinFileToIPFS',
    auth: 'org:files:write',
    summary: 'Pin a file or folder (legacy)',
    openapi: {
      tags: ['Uploads'],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: schemas.object(
              { file: { type: 'string' }, pinataMetadata: schemas.string, pinataOptions: schemas.string },
              ['file'],
            ),
          },
        },
      },
      responses: { '200': jsonResponse('Pinned (not wrapped in `data`)', ref('LegacyPin')) },
    },
    handle: pinFileToIPFS,
  },
]
