import { isNetwork, type UploadGrant } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { jsonResponse, okData } from '../../openapi/responses.js'
import { data, json } from '../../responses.js'
import { defineRoute, type RequestContext } from '../../router.js'
import { NetworkSchema } from '../../schema.js'
import { createResumable, headResumable, isResumableCreation, patchResumable, terminateResumable } from './resumable.js'
import { clientOptions, legacyItems, uploadItems, withOptions } from './upload-items.js'
import {
  FileUploadForm,
  LegacyPin,
  LegacyPinForm,
  legacyPinToWire,
  SignedUploadQuery,
  UploadedFile,
  type UploadSignRequest,
  uploadToWire,
} from './wire.js'

/**
 * Everything beyond a single multipart file: signed upload URLs, resumable (tus 1.0) uploads
 * (`resumable.ts`), folder uploads on the legacy `pinFileToIPFS`, and upload signing for
 * `POST /v3/files/sign`. (Folders and CARs on `POST /v3/files` go through the ordinary upload
 * handler, `../files/routes.ts`: core tells them apart.)
 */

/** Query parameters a client may add to a signed URL (the SDK adds the CID version); not signed. */
const CLIENT_OPTION_PARAM = /^X-Upload-Option-/i

// ---------------------------------------------------------------------------------------------
// POST /v3/files/sign (upload bodies)
// ---------------------------------------------------------------------------------------------

const wholeNumber = (value: number | string | null | undefined) =>
  value === undefined || value === null || value === '' ? undefined : Number(value)

/**
 * Upload signing for `POST /v3/files/sign` (the route lives in `../files-sign/routes.ts`, which answers
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

function verifyGrant({ service, url }: RequestContext, id: string): UploadGrant {
  const signed = new URLSearchParams([...url.searchParams].filter(([name]) => !CLIENT_OPTION_PARAM.test(name)))
  return service.uploads.signed.verify(`/v3/files/${id}`, signed)
}

// ---------------------------------------------------------------------------------------------
// Legacy POST /pinning/pinFileToIPFS (folders and single files; answer not wrapped in `data`)
// ---------------------------------------------------------------------------------------------

async function pinFileToIPFS({ request, service, actor, signal }: RequestContext) {
  const { file, isDuplicate } = await service.files.upload(actor, legacyItems(request), { signal })
  return json(legacyPinToWire(file, isDuplicate))
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
      // a URL signed before its tenant was suspended is refused as the tenant's tokens are
      await ctx.service.tenants.admit(grant.actor, { signal: ctx.signal })
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
    handle: (ctx, { params }) => patchResumable(ctx, params),
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
    handle: (ctx, { params }) => headResumable(ctx, params),
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
    handle: (ctx, { params }) => terminateResumable(ctx, params),
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
