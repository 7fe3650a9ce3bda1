/**
 * Pinfold's HTTP layer: Pinata's v3 API as one standard `Request → Response` function, for any
 * fetch-based runtime or framework (Hono, Next.js route handlers, Bun, Deno). On node:http,
 * Express or Fastify, bridge it with `createNodeHandler` from `@pinfold/http-node`.
 *
 * ```ts
 * import { createFileService, createTokenVerifier } from '@pinfold/core'
 * import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
 * import { createFetchHandler } from '@pinfold/http'
 *
 * const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
 * const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: process.env.PINFOLD_AUTH_SECRET! }) })
 * export default { fetch: handler } // Bun, Deno, Cloudflare-style
 * ```
 */

export { createFetchHandler, type FetchHandler, type FetchHandlerOptions, keptAnswersOf } from './fetch-handler.js'
export type { ImageOptions } from './gateway/image-variants.js'
export {
  DEFAULT_KEPT_ANSWERS,
  type KeptAnswer,
  type KeptAnswerSettings,
  type KeptAnswers,
  keptAnswerKey,
  setKeptAnswerKey,
} from './gateway/kept-answers.js'
export type { IpfsPeer } from './ipfs-peer.js'
export type { CorsOptions } from './middleware/cors.js'
export type {
  AnsweredRequest,
  GatewayFormat,
  GatewayServed,
  HttpObserver,
  UploadObserved,
  UploadPath,
} from './middleware/observe.js'
export type { RateLimitOptions, RateLimitRule } from './middleware/rate-limit.js'
// For bridges that build the Request themselves (`@pinfold/http-node`): what they already know
// about a request, and the text of a JSON response they can write without reading its stream.
export { setClientAddress } from './middleware/rate-limit.js'
export { jsonLinesLogger, type RequestLogEntry, type RequestLogger } from './middleware/request-log.js'
// The OpenAPI document's naming of routes, for tooling that maps a route to its operation.
export { type OpenApiDocument, openApiPath, operationId } from './openapi/document.js'
export { rememberUrl } from './request-url.js'
// Wire shapes for TypeScript clients of the API (types only: nothing of the server is loaded).
export type { WireFile, WireFileList } from './resources/files/wire.js'
export { knownBody } from './response-body.js'
export type { Route } from './router.js'
export { routes } from './routes.js'
export { STATUS_BY_CODE } from './status.js'
