import Type, { type Static } from 'typebox'
import { servePrivateLink } from '../../handlers/private-link.js'
import { envelope, okData } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute, type RequestContext } from '../../router.js'
import { SignedUrl } from '../../schema.js'
import { DownloadLinkRequest, type DownloadSignRequest, SignedLinkQuery } from './wire.js'

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
  defineRoute({
    method: 'GET',
    path: '/files/:cid',
    auth: 'public',
    summary: 'Download through a signed link',
    tags: ['Download links'],
    description:
      "The query of a link made by `POST /v3/files/private/download_link`; refused (403) once expired, or when a parameter is missing or changed. `img-*` parameters of the url the link was made for (`optimizeImage()`: `img-width`, `img-height`, `img-dpr`, `img-fit`, `img-gravity`, `img-quality`, `img-format`, `img-anim`, `img-sharpen`, `img-metadata`) are signed into it and transform an image when the server has image optimisation. A tenant's gateway host (dedicated name or custom domain) serves that tenant's links too.",
    request: { query: SignedLinkQuery },
    responses: {
      '200': {
        description: 'The file (ranges supported), or `{data: {cid, name, type: "directory"}}` for a folder',
        content: {
          '*/*': { schema: Type.String({ contentMediaType: 'application/octet-stream' }) },
          'application/json': {
            schema: envelope(Type.Object({ cid: Type.String(), name: Type.String(), type: Type.Literal('directory') })),
          },
        },
      },
      '302': { description: 'Redirect to a presigned URL of the blob store (S3)' },
    },
    /**
     * A private download: on the API's host, for any tenant's link (a tenant's own gateway host
     * serves its links too, see `handlers/gateway.ts`).
     */
    handle: ({ request, url, service, images, signal }, { params }) =>
      servePrivateLink(request, url, params.cid, { service, images, signal }),
  }),
]
