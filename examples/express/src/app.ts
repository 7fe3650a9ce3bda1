import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier } from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import express, { type Express } from 'express'

/** Builds an Express app with its own routes and Pinata's v3 API under `/pinfold`. */
export function createApp({ secret }: { secret: string }): Express {
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

  const app = express()
  app.get('/health', (_req, res) => {
    res.json({ ok: true })
  })
  // No body parser in front of Pinfold: uploads must reach it as an untouched stream.
  // Express strips the mount path from `req.url`; the bridge reads `req.originalUrl` instead, and
  // `basePath` matches it. Pinfold answers every request it receives under the prefix.
  app.use('/pinfold', pinfold)
  return app
}
