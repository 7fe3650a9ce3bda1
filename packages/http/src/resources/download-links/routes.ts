import type { Static } from 'typebox'
import { okData } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute, type RequestContext } from '../../router.js'
import { SignedUrl } from '../../schema.js'
import { DownloadLinkRequest, type DownloadSignRequest } from './wire.js'

/** Signs a download link: `POST …/download_link`, and `POST /v3/files/sign` with a `{url, method}` body. */
export async function signDownload(
  { service, actor, publicUrl, ownHostnames, signal }: RequestContext,
  body: Static<typeof DownloadLinkRequest> | Static<typeof DownloadSignRequest>,
) {
  const link = { ...body, expires: body.expires ?? 30 }
  return data(await service.downloadLinks.create(actor, link, publicUrl, { ownHostnames, signal }))
}

const linkRoute = (path: string, summary: string) =>
  defineRoute({
    method: 'POST',
    path,
    auth: 'org:files:read',
    summary,
    tags: ['Download links'],
    request: { body: DownloadLinkRequest },
    responses: okData(SignedUrl, 'The signed link'),
    handle: (ctx, { body }) => signDownload(ctx, body),
  })

export const downloadLinkRoutes = [
  linkRoute('/v3/files/private/download_link', 'Create a private download link'),
  linkRoute('/v3/files/download_link', 'Create a private download link (alias)'),
]
