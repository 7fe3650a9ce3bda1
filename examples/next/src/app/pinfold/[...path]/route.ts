// app/pinfold/[...path]/route.ts: Pinata's v3 API under /pinfold in a Next.js App Router app.
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier } from '@pinfold/core'
import { createFetchHandler, type FetchHandler } from '@pinfold/http'

// Pinfold uses Node APIs (node:crypto, streams), so this route stays off the Edge runtime,
// and every answer is live data that Next must never prerender or cache.
export const runtime = 'nodejs'
export const dynamic = 'force-dynamic'

let handler: FetchHandler | undefined

// Built on the first request, not at import: `next build` evaluates route modules without the
// runtime environment. Memory stores live as long as the server process; use the Postgres/S3/fs
// adapters for data that must survive a restart (or a dev-mode reload of this module).
function pinfold(request: Request): Promise<Response> {
  if (!handler) {
    const secret = process.env.PINFOLD_AUTH_SECRET
    if (!secret) throw new Error('set PINFOLD_AUTH_SECRET (at least 32 bytes)')
    const service = createFileService({
      records: createMemoryRecordStore(),
      blobs: createMemoryBlobStore(),
      signingSecret: secret, // turns on signed upload URLs (POST /v3/files/sign)
    })
    // `basePath` is this folder's URL; the links Pinfold returns carry it. (Add next.config's own
    // `basePath` in front if your app sets one: `request.url` includes it.)
    handler = createFetchHandler(service, { auth: createTokenVerifier({ secret }), basePath: '/pinfold' })
  }
  return handler(request)
}

// Next calls each with the incoming Request (plus a `{ params }` context Pinfold does not need:
// it routes on the URL itself). The request body arrives unread, so uploads stream.
export const GET = pinfold
export const HEAD = pinfold
export const POST = pinfold
export const PUT = pinfold
export const PATCH = pinfold
export const DELETE = pinfold
export const OPTIONS = pinfold
