import type { DownloadLinkRequest } from '@pinfold/core'
import { readJsonObject } from '../body.js'
import { contentDisposition, fileResponse } from '../gateway-responses.js'
import { envelope, jsonBody, okData, query, ref, schemas } from '../openapi/schemas.js'
import { data } from '../responses.js'
import type { RequestContext, Route } from '../router.js'

/**
 * `POST /v3/files/private/download_link` (and its alias without `/private`): signs a link to one
 * of the caller's files. Body `{url, expires, date?, method?}` as the official SDK sends it.
 */
async function createLink({ request, service, actor, publicUrl, signal }: RequestContext) {
  // handed on as it came: the service checks every field of a request it is given
  const body = (await readJsonObject(request)) as unknown as DownloadLinkRequest
  return data(await service.downloadLinks.create(actor, body, publicUrl, { signal }))
}

/**
 * The `{url, method}` shape of `POST /v3/files/sign` (the SDK's private `gateways.private.get`);
 * `undefined` for any other body, which is upload signing. The upload-signing handler calls this
 * first so one route serves both.
 */
export async function signDownloadIfUrlBody(ctx: RequestContext, body: Record<string, unknown>) {
  if (body.url === undefined || body.method === undefined) return undefined
  const request = { ...body, expires: body.expires ?? 30 } as DownloadLinkRequest
  return data(await ctx.service.downloadLinks.create(ctx.actor, request, ctx.publicUrl, { signal: ctx.signal }))
}

/**
 * `GET /files/{cid}?X-…&X-Signature=…`: a private download. Refused unless the signature is
 * valid, unexpired and names a tenant that still holds the CID. Where the blob store can
 * presign (S3) and the content is a plain file, the client is redirected there.
 */
async function download({ request, url, params, service, signal }: RequestContext) {
  const link = await service.downloadLinks.open(params.cid!, url.searchParams, { signal })
  const { file, expiresAt } = link
  const disposition = contentDisposition('inline', file.name)
  if (request.method === 'GET') {
    const location = await service.downloadLinks.presign(link, { contentDisposition: disposition, signal })
    if (location) {
      return new Response(null, { status: 302, headers: { location, 'cache-control': 'private, no-store' } })
    }
  }
  const secondsLeft = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000))
  const root = await service.gateway.resolveHeld(file, { signal })
  const entry = await service.gateway.entry(root, [], { signal })
  if (entry.type !== 'file') {
    return data({ cid: file.cid, name: file.name, type: 'directory' })
  }
  return fileResponse(request, entry, {
    etag: `"${file.cid}"`,
    headers: { 'cache-control': `private, max-age=${Math.min(secondsLeft, 3600)}`, 'x-ipfs-path': `/ipfs/${file.cid}` },
    contentType: file.mimeType,
    disposition,
  })
}

const linkDoc = {
  tags: ['Download links'],
  requestBody: jsonBody(ref('DownloadLinkRequest')),
  responses: okData({ type: 'string', format: 'uri' }, 'The signed link'),
}

export const downloadLinkRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/files/private/download_link',
    auth: 'org:files:read',
    summary: 'Create a private download link',
    openapi: linkDoc,
    handle: createLink,
  },
  {
    method: 'POST',
    path: '/v3/files/download_link',
    auth: 'org:files:read',
    summary: 'Create a private download link (alias)',
    openapi: linkDoc,
    handle: createLink,
  },
  {
    method: 'GET',
    path: '/files/:cid',
    auth: 'public',
    summary: 'Download through a signed link',
    openapi: {
      tags: ['Download links'],
      description: 'The query of a link made by `POST /v3/files/private/download_link`; refused once expired.',
      parameters: ['X-Algorithm', 'X-Date', 'X-Expires', 'X-Method', 'X-User-ID', 'X-Signature'].map((name) => ({
        ...query(name),
        required: true,
      })),
      responses: {
        '200': {
          description: 'The file (ranges supported), or `{data: {cid, name, type: "directory"}}` for a folder',
          content: {
            '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
            'application/json': {
              schema: envelope(
                schemas.object({ cid: schemas.string, name: schemas.string, type: { const: 'directory' } }),
              ),
            },
          },
        },
        '302': { description: 'Redirect to a presigned URL of the blob store (S3)' },
      },
    },
    handle: download,
  },
]
