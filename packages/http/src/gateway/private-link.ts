import { type FileService, notFound } from '@pinfold/core'
import { data } from '../responses.js'
import type { ImageVariants } from './image-variants.js'
import { contentDisposition, fileResponse } from './responses.js'
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
  // counted in the tenant's gateway usage
  const counted = (response: Response, servedElsewhere?: number) =>
    attributeUsage(response, { tenantId: file.tenantId, cid: file.cid, fileName: file.name, servedElsewhere })
  const disposition = contentDisposition('inline', file.name)
  const transforms = images !== undefined && [...url.searchParams.keys()].some((key) => key.startsWith('img-'))
  if (request.method === 'GET' && !transforms) {
    const location = await service.downloadLinks.presign(link, { contentDisposition: disposition, signal })
    if (location) {
      const redirect = new Response(null, { status: 302, headers: { location, 'cache-control': 'private, no-store' } })
      return counted(redirect, file.size)
    }
  }
  const secondsLeft = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000))
  const root = await service.gateway.resolveHeld(file, { signal })
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
