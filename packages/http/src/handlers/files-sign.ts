import { readJsonObject } from '../body.js'
import { jsonBody, okData, ref } from '../openapi/schemas.js'
import type { RequestContext, Route } from '../router.js'
import { signDownloadIfUrlBody } from './download-links.js'
import { signUpload } from './uploads.js'

/**
 * `POST /v3/files/sign`. A body with `url` and `method` signs a download link (what the official
 * SDK's `gateways.private.get` sends); every other body is upload signing, which the signed-upload
 * feature plugs in here.
 */
async function sign(ctx: RequestContext) {
  const body = await readJsonObject(ctx.request)
  const download = await signDownloadIfUrlBody(ctx, body)
  if (download) return download
  return signUpload(ctx, body)
}

export const filesSignRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/files/sign',
    auth: 'org:files:write',
    summary: 'Sign a URL',
    openapi: {
      tags: ['Uploads', 'Download links'],
      description: 'A body with `url` and `method` signs a download link; any other body signs an upload URL.',
      requestBody: jsonBody({ oneOf: [ref('UploadSignRequest'), ref('DownloadLinkRequest')] }),
      responses: okData({ type: 'string', format: 'uri' }, 'The signed URL'),
    },
    handle: sign,
  },
]
