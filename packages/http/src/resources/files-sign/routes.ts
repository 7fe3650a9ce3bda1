import { allows, PinfoldError } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { okData } from '../../openapi/responses.js'
import { defineRoute } from '../../router.js'
import { SignedUrl } from '../../schema.js'
import { signDownload } from '../download-links/routes.js'
import { DownloadSignRequest } from '../download-links/wire.js'
import { signUpload } from '../uploads/routes.js'
import { UploadSignRequest } from '../uploads/wire.js'

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
 * SDK's `gateways.private.get` sends); every other body is upload signing. The route asks for the
 * read scope a download link needs (as `POST /v3/files/private/download_link` does): a read-only
 * token must be able to read its private files through the SDK, which otherwise gets a 403 body
 * and then fails on its missing `data`. Upload signing checks the write scope itself.
 */
export const filesSignRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/files/sign',
    auth: 'org:files:read',
    summary: 'Sign a URL',
    tags: ['Uploads', 'Download links'],
    description:
      'A body with `url` and `method` signs a download link (scope `org:files:read`); any other body signs an upload URL (scope `org:files:write`).',
    request: { body: SignRequest },
    responses: okData(SignedUrl, 'The signed URL'),
    handle(ctx, { body }) {
      if (isDownload(body)) return signDownload(ctx, body)
      if (!allows(ctx.actor.scopes, 'org:files:write')) {
        throw new PinfoldError('FORBIDDEN', 'this token lacks the org:files:write scope')
      }
      return signUpload(ctx, body)
    },
  }),
]
