/**
 * Pinfold's HTTP layer: Pinata's v3 API as a standard fetch handler, a node:http bridge, and the
 * `pinfold` server.
 *
 * ```ts
 * import { createServer } from 'node:http'
 * import { createFileService, createTokenVerifier } from '@pinfold/core'
 * import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
 * import { createFetchHandler, createNodeHandler } from '@pinfold/http-node'
 *
 * const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
 * const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: process.env.PINFOLD_AUTH_SECRET! }) })
 * createServer(createNodeHandler(handler)).listen(3000)
 * ```
 */
export { answerClientErrors } from './client-errors.js'
export { readConfig, type ServerConfig } from './config.js'
export type { CorsOptions } from './cors.js'
export { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from './fetch-handler.js'
export { createNodeHandler, type NodeHandler, type NodeHandlerOptions } from './node-handler.js'
export { paymentOptionsFromEnv, paymentVerifierFromEnv } from './payments-config.js'
export type { Route } from './router.js'
export { routes } from './routes.js'
export { type RunningServer, startServer } from './server.js'
export { STATUS_BY_CODE } from './status.js'
