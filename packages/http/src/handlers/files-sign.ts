import Type, { type Static } from 'typebox'
import { okData, SignedUrl } from '../openapi/schemas.js'
import { defineRoute } from '../router.js'
import { DownloadSignRequest, signDownload } from './download-links.js'
import { signUpload, UploadSignRequest } from './uploads.js'

type DownloadBody = Static<typeof DownloadSignRequest>
type UploadBody = Static<typeof UploadSignRequest>

/** A body with both `url` and `method` signs a download link; every other body, an upload URL. */
const SignRequest = Type.Unsafe<DownloadBody | UploadBody>({
  if: { required: ['url', 'method'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else; this object is never awaited
  then: DownloadSignRequest,
  else: UploadSignRequest,
})

const isDownload = (body: DownloadBody | UploadBody): body is DownloadBody => 'url' in body && 'method' in body

/**
 * `POST /v3/files/sign`. A body with `url` and `method` signs a download link (what the official
 * SDK's `gateways.private.get` sends); every other body is upload signing.
 */
export const filesSignRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/files/sign',
    auth: 'org:files:write',
    summary: 'Sign a URL',
    tags: ['Uploads', 'Download links'],
    description: 'A body with `url` and `method` signs a download link; any other body signs an upload URL.',
    request: { body: SignRequest },
    responses: okData(SignedUrl, 'The signed URL'),
    handle: (ctx, { body }) => (isDownload(body) ? signDownload(ctx, body) : signUpload(ctx, body)),
  }),
]
