import type { Tracer } from '@opentelemetry/api'
import {
  allows,
  type FileService,
  type OperatorActor,
  PinfoldError,
  type TokenActor,
  type TokenVerifier,
} from '@pinfold/core'
import { bearerToken, identify } from './credentials.js'
import { createAnswerCache } from './gateway/answer-cache.js'
import { browserErrorPages } from './gateway/error-page.js'
import { createImageVariants, type ImageOptions } from './gateway/image-variants.js'
import { DEFAULT_KEPT_ANSWERS, type KeptAnswerSettings, type KeptAnswers } from './gateway/kept-answers.js'
import { hostNeedsLookup, resolveHost } from './gateway/request-host.js'
import { gatewayMethodNotAllowed } from './gateway/responses.js'
import { tenantHostRoutes } from './gateway/routes.js'
import { meterGatewayUsage } from './gateway/usage.js'
import { checkHandlerOptions } from './handler-options.js'
import type { IpfsPeer } from './ipfs-peer.js'
import { type CorsOptions, cors } from './middleware/cors.js'
import { answerErrors } from './middleware/errors.js'
import { headWithoutBody } from './middleware/head.js'
import { compose, type Exchange, type Middleware } from './middleware/middleware.js'
import { type HttpObserver, observeRequests } from './middleware/observe.js'
import { clientAddress, createRateLimiter, limitAddresses, type RateLimitOptions } from './middleware/rate-limit.js'
import { logRequests, type RequestLogger } from './middleware/request-log.js'
import { traceRequests } from './middleware/trace.js'
import { parseRequest } from './request-input.js'
import { parsedUrl, stripBasePath } from './request-url.js'
import { errorBody } from './responses.js'
import { createRouter, type Route } from './router.js'
import { routes as defaultRoutes } from './routes.js'
import { unsupportedRequest, unsupportedRoutes } from './unsupported-routes.js'

export interface FetchHandlerOptions {
  /** Verifies bearer tokens (see `createTokenVerifier` in @pinfold/core). */
  auth: TokenVerifier
  /**
   * Absolute URL clients reach this API at, including any mount prefix (e.g.
   * `https://files.example.com/pinfold`). Default: the request's own origin plus `basePath`.
   * Checked at construction (`INVALID_INPUT` unless an absolute http(s) URL without query or
   * fragment). May be a getter, e.g. for a server that learns its port after listening: then each
   * new value it returns is checked when read.
   */
  publicUrl?: string | undefined
  /** Path prefix the API is mounted under in a host application, e.g. `/pinfold`. */
  basePath?: string | undefined
  cors?: CorsOptions | undefined
  /** Called with every unexpected (5xx) failure; the client only sees a generic message. */
  onError?: ((error: unknown, request: Request) => void) | undefined
  /**
   * One structured entry per request: request id (`X-Request-Id`, echoed back), method, route
   * pattern, tenant, status, duration. Never headers, query strings or raw paths. Default: none.
   */
  logger?: RequestLogger | undefined
  /**
   * Told of every answer (route pattern, status, duration), of gateway bodies (format, bytes, time
   * to first byte) and of uploads (path, bytes): what a metrics registry counts. Default: none.
   */
  observer?: HttpObserver | undefined
  /** Per-token and per-address request budgets (429 with `Retry-After` beyond them); default none. */
  rateLimit?: RateLimitOptions | undefined
  /**
   * Host name of the subdomain gateway: a request for `{cidv1}.ipfs.{subdomainHost}` is served as
   * `/ipfs/{cidv1}{path}` at the root of that origin, where content runs in an origin of its own.
   * Default: the host name of `publicUrl`; without one, any `{cidv1}.ipfs.{host}`.
   */
  subdomainHost?: string | undefined
  /**
   * Image optimisation (`img-width`, `img-format`, … as the SDK's `optimizeImage()` sends them) on
   * tenants' gateways (dedicated names, custom domains) and private links. Without it those
   * parameters are ignored and images are served as stored, as Pinata's public gateway does.
   */
  images?: ImageOptions | undefined
  /** The client's address for per-address limits; default: what `createNodeHandler` recorded. */
  clientIp?: ((request: Request) => string | undefined) | undefined
  /**
   * The host's embedded IPFS node, read on each request that needs it: `/routing/v1/providers`
   * lists it as a bitswap provider and `/healthz` reports it. Default none (the routing API then
   * lists the HTTP gateway alone).
   */
  ipfsPeer?: (() => IpfsPeer | undefined) | undefined
  /**
   * URL of the OpenAPI viewer's script that `/docs` loads: Scalar's browser bundle
   * (`@scalar/api-reference/dist/browser/standalone.js`), served by the host application. Relative
   * to `/docs` itself (`docs/viewer/standalone.js` is `{basePath}/docs/viewer/standalone.js`) or
   * absolute. The `pinfold` server serves one. Without it, `/docs` says where the OpenAPI document is
   * and how to set this.
   */
  docsScriptUrl?: string | undefined
  /**
   * OpenTelemetry tracing: a span per request (see `traceRequests`), parent of the spans of the
   * service it calls (give the same tracer to `createFileService({ tracer })`). Default none: no
   * span, no cost.
   */
  tracer?: Tracer | undefined
  /**
   * The gateway's answer cache (`gateway/kept-answers.ts`): small public gateway answers kept
   * whole and answered again by the node bridge without running the handler (give
   * {@link keptAnswersOf} this handler to `createNodeHandler`). `maxBytes` of memory (default
   * 16 MiB; 0 turns it off), bodies up to `maxBodyBytes` (64 KiB), each kept at most `maxAgeMs`
   * (60 s) and never past a change that could alter it. Off with a `tracer` (every request is a
   * span) or a `clientIp` of the embedder's (the bridge cannot ask it).
   */
  answerCache?: Partial<KeptAnswerSettings> | undefined
}

const keptAnswers = new WeakMap<FetchHandler, KeptAnswers>()

/**
 * The answer cache of a handler `createFetchHandler` made, for `createNodeHandler({ keptAnswers })`:
 * `undefined` when it has none. Only for a handler serving the gateway as this one does: a wrapper
 * that answers some paths itself (a console, `/metrics`) must answer none of the gateway's.
 */
export function keptAnswersOf(handler: FetchHandler): KeptAnswers | undefined {
  return keptAnswers.get(handler)
}

export type FetchHandler = (request: Request) => Promise<Response>

const ANONYMOUS: TokenActor = { tenantId: '', userId: '', scopes: new Set() }

/** The caller with the request's id, which the audit log's entries carry (the verified actor is cached, so a copy). */
function withRequestId(actor: TokenActor, requestId: string | undefined): TokenActor {
  return actor === ANONYMOUS || !requestId ? actor : { ...actor, requestId }
}

/** Where the admin API lives: invisible to everyone but an operator. */
const ADMIN_PREFIX = '/admin/'

/** The answer to a path no route takes, which the admin API gives whoever is not an operator. */
function notThere(request: Request, url: URL): Response {
  return errorBody(unsupportedRequest(request.method, url.pathname), 404)
}

/**
 * The one HTTP implementation: a standard `Request → Response` function. Mount it in any
 * fetch-based framework (Hono, Next.js route handlers, Bun, Deno) or bridge it onto node:http
 * with `createNodeHandler`.
 */
export function createFetchHandler(service: FileService, options: FetchHandlerOptions): FetchHandler {
  const checked = checkHandlerOptions(service, options)
  const { basePath } = checked
  const route = createRouter([...defaultRoutes, ...tenantHostRoutes, ...unsupportedRoutes])
  const limiter = createRateLimiter(options.rateLimit)
  const images = options.images && createImageVariants(options.images)

  // Outermost first: each concern sees the answer of the ones after it, errors included.
  const middleware: Middleware[] = [
    headWithoutBody,
    logRequests(options.logger),
    ...(options.tracer ? [traceRequests(options.tracer)] : []),
    ...(options.observer ? [observeRequests(options.observer)] : []),
    cors(options.cors ?? {}),
    meterGatewayUsage(service),
    browserErrorPages(),
    answerErrors(options.onError),
    limitAddresses(limiter, options.clientIp ?? clientAddress, basePath),
  ]
  const run = compose(middleware, dispatch)
  const cacheSettings = { ...DEFAULT_KEPT_ANSWERS, ...options.answerCache }
  const cache =
    cacheSettings.maxBytes > 0 && !options.tracer && !options.clientIp
      ? createAnswerCache({
          service,
          settings: cacheSettings,
          limiter,
          observer: options.observer,
          logger: options.logger,
        })
      : undefined
  // the exchanges whose host was told by its name alone (no domain lookup): their answers may be kept
  const fixedHosts = new WeakSet<Exchange>()
  const handler: FetchHandler = async (request) => {
    const exchange: Exchange = { request, url: parsedUrl(request), seen: { route: null } }
    const started = cache?.before(request)
    const response = await run(exchange)
    if (started) cache!.after(started, exchange, fixedHosts.has(exchange), response)
    return response
  }
  if (cache) keptAnswers.set(handler, cache.answers)
  return handler

  /** The route's answer, or the 404 or 405 of a request no route takes. */
  async function dispatch(exchange: Exchange): Promise<Response> {
    const { request, url, seen } = exchange
    const publicUrl = checked.publicUrl()
    const apiHostname = publicUrl?.hostname ?? url.hostname
    // with neither option, the request's own host name says nothing: any {cid}.ipfs.{host} is one
    const subdomainHost = checked.subdomainHost ?? publicUrl?.hostname.toLowerCase()
    const hostOptions = { service, apiHostname, subdomainHost }
    const host = await resolveHost(request, url, hostOptions)
    // a gateway's host serves at its root, whatever the API's mount prefix
    const pathname = host.kind === 'api' ? stripBasePath(url.pathname, basePath) : url.pathname
    const match = pathname === undefined ? undefined : route(request.method, pathname, host)
    if (pathname === undefined || !match) {
      // a tenant's host is its gateway, and nothing else
      if (host.kind === 'tenant')
        throw new PinfoldError('NOT_FOUND', 'a gateway serves /ipfs/{cid} and /files/{cid} paths only')
      // 404, not 501: the server has no such resource, and the fault is not the server's
      return notThere(request, url)
    }
    if ('allowed' in match) {
      // the admin API's paths exist for operators only: another method's 405 would tell anyone they do
      if (pathname.startsWith(ADMIN_PREFIX) && !(await operatorOf(request))) return notThere(request, url)
      if (match.gateway) {
        seen.route = 'gateway'
        return gatewayMethodNotAllowed(request.method)
      }
      const allow = [...new Set(match.allowed)].join(', ')
      return errorBody(`${unsupportedRequest(request.method, url.pathname)}: this path answers ${allow}`, 405, {
        allow,
      })
    }
    let operator: OperatorActor | undefined
    if (match.route.auth === 'operator') {
      operator = await operatorOf(request)
      if (!operator) return notThere(request, url)
      // the audit log's entries name the request that made them
      operator = { ...operator, requestId: seen.requestId }
    }
    seen.route = match.route.gateway ? 'gateway' : match.route.path
    if (match.route.gateway && host.kind !== 'tenant' && !hostNeedsLookup(url, hostOptions)) fixedHosts.add(exchange)
    exchange.answerError = match.route.answerError
    const actor = operator ? ANONYMOUS : withRequestId(await authenticate(request, match.route), seen.requestId)
    if (actor.tenantId) seen.tenant = actor.tenantId
    const input = await parseRequest(match.route, request, url, match.params)
    return match.route.handle(
      {
        request,
        url,
        host,
        pathname,
        actor,
        operator,
        signal: request.signal,
        publicUrl: publicUrl?.href ?? `${url.origin}${basePath}`,
        ownHostnames: subdomainHost ? [apiHostname, subdomainHost] : [apiHostname],
        docsScriptUrl: options.docsScriptUrl,
        service,
        images,
        ipfsPeer: options.ipfsPeer?.(),
      },
      input,
    )
  }

  /** The operator a request's bearer token names, or undefined for anyone else (whatever the reason). */
  async function operatorOf(request: Request): Promise<OperatorActor | undefined> {
    const token = bearerToken(request)
    if (!token) return undefined
    return service.admin.authenticate(token, { signal: request.signal }).catch(() => undefined)
  }

  async function authenticate(request: Request, route: Route): Promise<TokenActor> {
    if (route.auth === 'public') return ANONYMOUS
    const actor = await identify(request, route.path, service, options.auth)
    limiter.checkActor(actor)
    // registers a tenant on its first request, refuses a suspended one (403 naming the suspension)
    await service.tenants.admit(actor, { signal: request.signal })
    // the tenant's own budget (`requestsPerMinute`), shared by all its tokens and keys
    await service.quotas.takeRequest(actor, { signal: request.signal })
    if (route.auth !== 'token' && route.auth !== 'operator' && !allows(actor.scopes, route.auth)) {
      throw new PinfoldError('FORBIDDEN', `this token lacks the ${route.auth} scope`)
    }
    return actor
  }
}
