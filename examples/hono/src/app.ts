import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier } from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import { Hono } from 'hono'

/** Builds a Hono app with its own routes and Pinata's v3 API under `/pinfold`. */
export function createApp({ secret }: { secret: string }): Hono {
  // Memory stores keep the example self-contained; swap in Postgres/S3/fs adapters for real data.
  // `signingSecret` turns on signed upload URLs (`POST /v3/files/sign`).
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    signingSecret: secret,
  })
  // Hono speaks Request → Response, so the fetch handler mounts as is: no bridge.
  // `basePath` tells Pinfold where it lives, so the links it returns carry the prefix.
  const pinfold = createFetchHandler(service, { auth: createTokenVerifier({ secret }), basePath: '/pinfold' })

  const app = new Hono()
  app.get('/health', (c) => c.json({ ok: true }))
  // `c.req.raw` is the untouched Request with the full URL (body unread), which is what `basePath`
  // expects. (`app.mount` would strip the prefix from the URL unless given `replaceRequest: false`.)
  app.all('/pinfold/*', (c) => pinfold(c.req.raw))
  return app
}
