import { invalid, type UploadGrant, type UploadOptions } from '@pinfold/core'
import { binaryString, fromBase64 } from '../../bytes.js'
import type { RequestContext } from '../../router.js'
import { uploadFieldToOptions } from './upload-items.js'

/**
 * tus 1.0 resumable uploads: creation (`POST /v3/files` with `Upload-Length`, or a signed URL),
 * then PATCH, HEAD and DELETE on the upload's URL.
 */

const TUS_VERSION = '1.0.0'

/** `POST /v3/files` (or a signed URL) with `Upload-Length` and no multipart body is a tus creation. */
export function isResumableCreation(request: Request): boolean {
  const type = request.headers.get('content-type') ?? ''
  return request.headers.has('upload-length') && !/^multipart\//i.test(type)
}

/** `Upload-Metadata`: `key base64,key base64,…`. Values are UTF-8, or Latin-1 from the SDK's `btoa`. */
function parseUploadMetadata(header: string | null): Map<string, string> {
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

export interface TusParams {
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

export async function patchResumable(
  { request, service, signal }: RequestContext,
  params: TusParams,
): Promise<Response> {
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

export async function headResumable({ service, signal }: RequestContext, params: TusParams): Promise<Response> {
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

export async function terminateResumable({ service, signal }: RequestContext, params: TusParams): Promise<Response> {
  await service.uploads.terminate(params.id, params.token, { signal })
  return new Response(null, { status: 204, headers: tusHeaders() })
}
