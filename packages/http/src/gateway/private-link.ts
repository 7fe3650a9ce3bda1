import { type FileService, notFound } from '@pinfold/core'
import Type from 'typebox'
import { envelope } from '../openapi/responses.js'
import { SignedLinkQuery } from '../resources/download-links/wire.js'
import { data } from '../responses.js'
import { defineRoute } from '../router.js'
import { decodeSegment } from './gateway-path.js'
import type { ImageVariants } from './image-variants.js'
import { carContentType } from './negotiation.js'
import { tenantOf } from './request-host.js'
import { contentDisposition, fileResponse, GATEWAY_SECURITY_HEADERS, toStream } from './responses.js'
import { attributeUsage } from './usage.js'

export interface PrivateLinkContext {
  service: FileService
  images: ImageVariants | undefined
  signal: AbortSignal
  /** On a tenant's gateway host: only that tenant's links open there. */
  hostTenant?: string | undefined
}

/**
 * `GET /files/{cid}?X-…&X-Signature=…`: refused unless the signature is valid, unexpired and names
 * a tenant that still holds the CID (checked over the whole query, `img-*` parameters included,
 * which the signature covers). With `img-*` parameters an image is transformed; otherwise, where
 * the blob store can presign (S3) and the content is a plain file, the client is redirected there.
 */
export async function servePrivateLink(
  request: Request,
  url: URL,
  cid: string,
  { service, images, signal, hostTenant }: PrivateLinkContext,
): Promise<Response> {
  const link = await service.downloadLinks.open(cid, url.searchParams, { signal })
  const { file, expiresAt } = link
  // another tenant's link on this tenant's host: as if it did not exist
  if (hostTenant !== undefined && file.tenantId !== hostTenant) throw notFound('file')
  // a link signed before its tenant was suspended is refused as the tenant's tokens are
  await service.tenants.admit({ tenantId: file.tenantId, userId: '' }, { signal })
  // counted in the tenant's gateway usage
  const counted = (response: Response, servedElsewhere?: number) =>
    attributeUsage(response, { tenantId: file.tenantId, cid: file.cid, fileName: file.name, servedElsewhere })
  const disposition = contentDisposition('inline', file.name)
  const transforms = images !== undefined && [...url.searchParams.keys()].some((key) => key.startsWith('img-'))
  // `format=car` (signed into the link like any parameter): the blocks, for a client that checks
  // every one against the CID instead of trusting the server (`pinfold get`)
  const car = url.searchParams.get('format') === 'car'
  if (request.method === 'GET' && !transforms && !car) {
    const location = await service.downloadLinks.presign(link, { contentDisposition: disposition, signal })
    if (location) {
      const redirect = new Response(null, { status: 302, headers: { location, 'cache-control': 'private, no-store' } })
      return counted(redirect, file.size)
    }
  }
  const secondsLeft = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000))
  const root = await service.gateway.resolveHeld(file, { signal })
  if (car) {
    const blocks = await service.gateway.car(root, [], { scope: 'all', dups: false, signal })
    const headers = {
      'content-type': carContentType(false),
      'cache-control': 'private, no-store',
      'content-disposition': contentDisposition('attachment', `${file.cid}.car`),
      'x-ipfs-path': `/ipfs/${file.cid}`,
    }
    return counted(new Response(request.method === 'HEAD' ? null : toStream(blocks.stream), { headers }))
  }
  const entry = await service.gateway.entry(root, [], { signal })
  if (entry.type !== 'file') {
    return counted(data({ cid: file.cid, name: file.name, type: 'directory' }))
  }
  const headers = {
    'cache-control': `private, max-age=${Math.min(secondsLeft, 3600)}`,
    'x-ipfs-path': `/ipfs/${file.cid}`,
  }
  const target = { cid: file.cid, entry, contentType: file.mimeType, headers, disposition, tenantId: file.tenantId }
  const variant = await images?.respond(request, url, target)
  if (variant) return counted(variant)
  return counted(
    await fileResponse(request, entry, { etag: `"${file.cid}"`, headers, contentType: file.mimeType, disposition }),
  )
}

const request = { query: SignedLinkQuery }

/** A private download on the API's host, for any tenant's link. */
export const privateLinkRoute = defineRoute({
  method: 'GET',
  path: '/files/:cid',
  auth: 'public',
  summary: 'Download through a signed link',
  tags: ['Download links'],
  description:
    "The query of a link made by `POST /v3/files/private/download_link`; refused (403) once expired, or when a parameter is missing or changed. A link made for a url ending `?format=car` answers the content's blocks as a CAR (depth-first, no duplicates), for a client that verifies them against the CID. `img-*` parameters of the url the link was made for (`optimizeImage()`: `img-width`, `img-height`, `img-dpr`, `img-fit`, `img-gravity`, `img-quality`, `img-format`, `img-anim`, `img-sharpen`, `img-metadata`) are signed into it and transform an image when the server has image optimisation. A tenant's gateway host (dedicated name or custom domain) serves that tenant's links too.",
  request,
  responses: {
    '200': {
      description:
        'The file (ranges supported), or `{data: {cid, name, type: "directory"}}` for a folder, or a CAR with `format=car`',
      content: {
        '*/*': { schema: Type.String({ contentMediaType: 'application/octet-stream' }) },
        'application/json': {
          schema: envelope(Type.Object({ cid: Type.String(), name: Type.String(), type: Type.Literal('directory') })),
        },
      },
    },
    '302': { description: 'Redirect to a presigned URL of the blob store (S3)' },
  },
  handle: ({ request, url, service, images, signal }, { params }) =>
    servePrivateLink(request, url, params.cid, { service, images, signal }),
})

/**
 * The same download on a tenant's gateway host: that tenant's links only, with the gateway's
 * headers. `privateLinkRoute` documents both (an OpenAPI operation is a path and a method, whatever
 * the host), so this one is routed but not listed in `routes.ts`. Its CID is taken as written and
 * decoded here, a malformed one being the gateway's 400; exactly one segment, as the gateway has it.
 */
export const tenantPrivateLinkRoute = defineRoute({
  ...privateLinkRoute,
  path: '/files/:cid*',
  hosts: ['tenant'],
  gateway: true,
  when: (_, { pathname }) => /^\/files\/[^/]+$/.test(pathname),
  request,
  async handle({ request, url, service, images, signal, host }, { params }) {
    const response = await servePrivateLink(request, url, decodeSegment(params.cid), {
      service,
      images,
      signal,
      hostTenant: tenantOf(host),
    })
    for (const [name, value] of Object.entries(GATEWAY_SECURITY_HEADERS)) response.headers.set(name, value)
    return response
  },
})
