import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier } from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import Fastify, { type FastifyInstance } from 'fastify'

/** Builds a Fastify app with its own routes and Pinata's v3 API under `/pinfold`. */
export function createApp({ secret }: { secret: string }): FastifyInstance {
  // Memory stores keep the example self-contained; swap in Postgres/S3/fs adapters for real data.
  // `signingSecret` turns on signed upload URLs (`POST /v3/files/sign`).
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    signingSecret: secret,
  })
  // `basePath` tells Pinfold where it lives, so the links it returns carry the prefix.
  const pinfold = createNodeHandler(
    createFetchHandler(service, { auth: createTokenVerifier({ secret }), basePath: '/pinfold' }),
  )

  const app = Fastify()
  app.get('/health', async () => ({ ok: true }))
  // An encapsulated plugin, so the parser changes below stay inside `/pinfold`.
  app.register(
    async (scope) => {
      // Fastify parses bodies before the handler runs (and refuses multipart with 415). Pinfold
      // streams bodies itself: accept every content type and leave the stream unread.
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null))
      // `request.raw.url` still holds the full path (Fastify never rewrites it), which is what
      // `basePath` expects. `hijack` tells Fastify that Pinfold writes the response itself.
      scope.all('/*', (request, reply) => {
        reply.hijack()
        pinfold(request.raw, reply.raw)
      })
    },
    { prefix: '/pinfold' },
  )
  return app
}
