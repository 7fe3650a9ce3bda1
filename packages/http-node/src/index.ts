/**
 * A node:http bridge for Pinfold's fetch handler (`@pinfold/http`): mount Pinfold in a plain
 * node:http server, Express or Fastify. The `pinfold` server itself is `@pinfold/server`.
 *
 * ```ts
 * import { createServer } from 'node:http'
 * import { createFileService, createTokenVerifier } from '@pinfold/core'
 * import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
 * import { createFetchHandler } from '@pinfold/http'
 * import { createNodeHandler } from '@pinfold/http-node'
 *
 * const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
 * const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: process.env.PINFOLD_AUTH_SECRET! }) })
 * createServer(createNodeHandler(handler)).listen(3000)
 * ```
 */
export { answerClientErrors } from './client-errors.js'
export { type DrainingHandler, drainable } from './graceful.js'
export {
  createNodeHandler,
  DEFAULT_BODY_IDLE_TIMEOUT_MS,
  type NodeHandler,
  type NodeHandlerOptions,
} from './node-handler.js'
