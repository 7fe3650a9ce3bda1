import Type, { type Static } from 'typebox'
import { contentDisposition, fileResponse } from '../gateway-responses.js'
import { attributeUsage } from '../gateway-usage.js'
import { envelope, okData, SignedUrl } from '../openapi/schemas.js'
import { data } from '../responses.js'
import { defineRoute, type RequestContext } from '../router.js'
import { named } from '../schema.js'

/** Integers; digits as text are accepted too. */
const Seconds = (description: string) =>
  Type.Union([Type.Integer(), Type.String({ pattern: '^-?\\d+$' })], {
    description,
    errorMessage: 'must be an integer',
  })

/** Body `{url, expires, date?, method?}` as the official SDK sends it. */
export const DownloadLinkRequest = named(
  'DownloadLinkRequest',
  Type.Object({
    url: Type.String({ description: 'A URL containing `/files/<cid>`' }),
    expires: Seconds('Seconds the link stays valid'),
    date: Type.Optional(Type.Union([Seconds('Unix seconds the link starts at; default now'), Type.Null()])),
    method: Type.Optional(Type.String({ description: 'GET, the only method a link may grant' })),
  }),
)

/**
 * The `{url, method}` body of `POST /v3/files/sign` (the SDK's private `gateways.private.get`),
 * whose `expires` defaults to 30 seconds.
 */
export const DownloadSignRequest = named(
  'DownloadSignRequest',
  Type.Object({
    url: Type.String({ description: 'A URL containing `/files/<cid>`' }),
    method: Type.String({ description: 'GET, the only method a link may grant' }),
    expires: Type.Optional(
      Type.Union([Seconds('Seconds the link stays valid'), Type.Null()], { description: 'Default 30' }),
    ),
    date: Type.Optional(Type.Union([Seconds('Unix seconds the link starts at; default now'), Type.Null()])),
  }),
)

/** Signs a download link: `POST …/download_link`, and `POST /v3/files/sign` with a `{url, method}` body. */
export async function signDownload(
  { service, actor, publicUrl, signal }: RequestContext,
  body: Static<typeof DownloadLinkRequest> | Static<typeof DownloadSignRequest>,
) {
  const link = { ...body, expires: body.expires ?? 30 }
  return data(await service.downloadLinks.create(actor, link, publicUrl, { signal }))
}

/** A parameter of a signed link (the signature covers them all: core checks them together). */
const signedParam = Type.Optional(Type.String())

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
      'The query of a link made by `POST /v3/files/private/download_link`; refused (403) once expired, or when a parameter is missing or changed.',
    request: {
      query: Type.Object({
        'X-Algorithm': signedParam,
        'X-Date': signedParam,
        'X-Expires': signedParam,
        'X-Method': signedParam,
        'X-User-ID': signedParam,
        'X-Signature': signedParam,
      }),
    },
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
     * A private download. Refused unless the signature is valid, unexpired and names a tenant that
     * still holds the CID (checked over the whole query, which the signature covers). Where the blob
     * store can presign (S3) and the content is a plain file, the client is redirected there.
     */
    async handle({ request, url, service, signal }, { params }) {
      const link = await service.downloadLinks.open(params.cid, url.searchParams, { signal })
      const { file, expiresAt } = link
      // counted in the tenant's gateway usage
      const counted = (response: Response, servedElsewhere?: number) =>
        attributeUsage(response, { tenantId: file.tenantId, cid: file.cid, fileName: file.name, servedElsewhere })
      const disposition = contentDisposition('inline', file.name)
      if (request.method === 'GET') {
        const location = await service.downloadLinks.presign(link, { contentDisposition: disposition, signal })
        if (location) {
          return counted(
            new Response(null, { status: 302, headers: { location, 'cache-control': 'private, no-store' } }),
            file.size,
          )
        }
      }
      const secondsLeft = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000))
      const root = await service.gateway.resolveHeld(file, { signal })
      const entry = await service.gateway.entry(root, [], { signal })
      if (entry.type !== 'file') {
        return counted(data({ cid: file.cid, name: file.name, type: 'directory' }))
      }
      return counted(
        await fileResponse(request, entry, {
          etag: `"${file.cid}"`,
          headers: {
            'cache-control': `private, max-age=${Math.min(secondsLeft, 3600)}`,
            'x-ipfs-path': `/ipfs/${file.cid}`,
          },
          contentType: file.mimeType,
          disposition,
        }),
      )
    },
  }),
]
