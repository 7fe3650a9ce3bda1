import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, type FileService, type TokenVerifier } from '@pinfold/core'
import { createRemoteJWKSet } from 'jose'
import type { ServerConfig } from './config.js'
import { createFetchHandler, type FetchHandlerOptions } from './fetch-handler.js'
import { createNodeHandler } from './node-handler.js'
import { loadOrCreateSecret } from './secret.js'

export interface RunningServer {
  url: string
  server: Server
  service: FileService
  /** The HS256 secret in use, when tokens are not verified against a JWKS. */
  secret: string | undefined
  secretCreated: boolean
  close(): Promise<void>
}

/** Builds the service from the configuration and listens. Used by `pinfold serve` and the tests. */
export async function startServer(
  config: ServerConfig,
  extra: Partial<Pick<FetchHandlerOptions, 'onError' | 'cors' | 'basePath'>> = {},
): Promise<RunningServer> {
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    maxUploadBytes: config.maxUploadBytes,
  })
  const { auth, secret, created } = await resolveAuth(config)
  const handler = createFetchHandler(service, { auth, publicUrl: config.publicUrl, ...extra })
  const server = createServer(createNodeHandler(handler))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  return {
    url: `http://${host}:${port}`,
    server,
    service,
    secret,
    secretCreated: created,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      }),
  }
}

async function resolveAuth(
  config: ServerConfig,
): Promise<{ auth: TokenVerifier; secret: string | undefined; created: boolean }> {
  const claims = { issuer: config.jwtIssuer, audience: config.jwtAudience }
  if (config.jwksUrl) {
    return {
      auth: createTokenVerifier({ keys: createRemoteJWKSet(new URL(config.jwksUrl)), ...claims }),
      secret: undefined,
      created: false,
    }
  }
  const { secret, created } = config.authSecret
    ? { secret: config.authSecret, created: false }
    : await loadOrCreateSecret(config.dataDir)
  return { auth: createTokenVerifier({ secret, ...claims }), secret, created }
}
