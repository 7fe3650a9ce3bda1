import { createServer, type Server } from 'node:http'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier } from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'

/** A bare node:http server whose every path is Pinata's v3 API. Call `.listen()` on it. */
export function createPinfoldServer({ secret }: { secret: string }): Server {
  // Memory stores keep the example self-contained; swap in Postgres/S3/fs adapters for real data.
  // `signingSecret` turns on signed upload URLs (`POST /v3/files/sign`).
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    signingSecret: secret,
  })
  // The same secret verifies bearer tokens; mint them with `mintToken` or `pinfold token`.
  const auth = createTokenVerifier({ secret })
  // The bridge streams request bodies into the handler and aborts it when the client goes away.
  // Behind a reverse proxy you run, add `{ trustProxy: true }` so returned links use its host.
  const server = createServer(createNodeHandler(createFetchHandler(service, { auth })))
  // Node cuts any request after 300 s by default, long uploads included; the bridge cuts a body
  // that stops sending instead (`bodyIdleTimeoutMs`, 60 s by default).
  server.requestTimeout = 0
  return server
}
