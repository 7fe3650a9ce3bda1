import Type, { type Static } from 'typebox'
import { okData, SignedUrl } from '../openapi/schemas.js'
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
