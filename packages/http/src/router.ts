import type { FileService, OperatorActor, Scope, TokenActor } from '@pinfold/core'
import Type, { type Static, type TObject, type TSchema } from 'typebox'
import type { ImageVariants } from './gateway/image-variants.js'
import { API_HOST, type RequestHost } from './gateway/request-host.js'
import type { IpfsPeer } from './ipfs-peer.js'
import type { OpenApiResponse } from './openapi/types.js'

export interface RequestContext {
  request: Request
  url: URL
  /** The verified caller; routes with `auth: 'public'` or `'operator'` get an anonymous placeholder. */
  actor: TokenActor
  /** The verified operator, on routes with `auth: 'operator'` (the admin API); else undefined. */
  operator: OperatorActor | undefined
  signal: AbortSignal
  /** Absolute base URL of this API (including any mount prefix), for links the server returns. */
  publicUrl: string
  /** The face of the deployment the request's host name is (the API, a gateway). */
  host: RequestHost
  /** The path routed: under the API's mount prefix on its host, from the root on a gateway's. */
  pathname: string
  /** Host names this deployment answers on itself (the API's, the subdomain gateway's). */
  ownHostnames: readonly string[]
  /** The OpenAPI viewer's script for `/docs` (`FetchHandlerOptions.docsScriptUrl`). */
  docsScriptUrl: string | undefined
  service: FileService
  /** Image variants (`createFetchHandler({ images })`); without them `img-*` parameters are ignored. */
  images: ImageVariants | undefined
  /** The embedded IPFS node, when the server runs one (`createFetchHandler({ ipfsPeer })`). */
  ipfsPeer: IpfsPeer | undefined
}

/**
 * What a route reads from a request, as schemas. The fetch handler parses and checks `params`,
 * `query`, `headers` and a JSON `body` before the handler runs (a mismatch is a 400 naming the
 * field); the same schemas are the route's parameters and request body in `/openapi.json`.
 */
export interface RequestSchemas {
  /** Schemas of `:name` path segments; a segment left out is a string. */
  params?: Record<string, TSchema>
  query?: TObject
  /** Request headers, by their canonical spelling (matched case-insensitively). */
  headers?: TObject
  /** A JSON object body (read whatever its Content-Type: the SDK sends some as text/plain). */
  body?: TSchema
  /** The largest JSON body accepted, in bytes; default `MAX_JSON_BYTES` (1 MiB). */
  maxBodyBytes?: number
  /**
   * A `multipart/form-data` body, streamed by the handler: each text field is checked against its
   * property as it arrives (`formField`); file parts are the handler's.
   */
  form?: TObject
  /** Whether a `form` body may be left out (a tus creation has none); default required. */
  formOptional?: boolean
  /** A raw body the handler streams itself, e.g. a tus PATCH. */
  stream?: { mediaType: string; description?: string }
}

/** `'/v3/files/:network/:id'` → `'network' | 'id'`; `'/ipfs/:path*'` → `'path'` */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}*`
    ? Name
    : P extends `${string}:${infer Name}`
      ? Name
      : never

type StaticOr<S, Fallback> = S extends TSchema ? Static<S> : Fallback

/** What a handler receives: the request's parts, parsed and checked against the route's schemas. */
export interface TypedInput<P extends string, S extends RequestSchemas> {
  params: {
    [K in PathParamNames<P>]: S['params'] extends Record<K, TSchema> ? Static<S['params'][K]> : string
  }
  query: StaticOr<S['query'], Record<string, never>>
  headers: StaticOr<S['headers'], Record<string, never>>
  body: StaticOr<S['body'], undefined>
}

/** {@link TypedInput} once the route's types are erased (what the route table holds). */
export interface RouteInput {
  params: Record<string, unknown>
  query: Record<string, unknown>
  headers: Record<string, unknown>
  body: unknown
}

interface RouteFields {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /**
   * A scope the bearer token must grant, `'token'` for any valid token, `'public'` for none, or
   * `'operator'` for an operator token (the admin API: every other caller gets the 404 of a path
   * that does not exist).
   */
  auth: Scope | 'token' | 'public' | 'operator'
  summary: string
  /** OpenAPI tags (the first groups the operation in `/docs`) and description. */
  tags: string[]
  description?: string
  /** Success (and route-specific failure) responses by status code, as published in `/openapi.json`. */
  responses: Record<string, OpenApiResponse>
  /** The hosts the route answers on (see `RequestHost`); default the API's alone. */
  hosts?: readonly RequestHost['kind'][]
  /**
   * Optional guard on the matched parameters and the request's host and path: when it answers
   * false the router keeps looking, as if the pattern had not matched. Guarded routes are tried
   * before unguarded ones of equal rank.
   */
  when?(params: Record<string, string>, target: RouteTarget): boolean
  /**
   * Served by the IPFS gateway: another method than GET or HEAD is the gateway's 405
   * (`Allow: GET, HEAD`), and the request log names the route `gateway`.
   */
  gateway?: true
  /**
   * How this route's failures are written (the Pinning Service API's `Failure` shape); default
   * `{"error": "…"}`. Failures of its authentication and request checks are written so too.
   */
  answerError?: (error: unknown) => Response
  /**
   * A Pinata endpoint Pinfold does not implement (`unsupported-routes.ts`): it answers that, and is
   * never offered as an allowed method of its path.
   */
  unsupported?: true
}

/** What the router matches a route against, beside its method. */
export interface RouteTarget {
  host: RequestHost
  /** The path routed (`RequestContext.pathname`). */
  pathname: string
}

/** A route as it is declared (see {@link defineRoute}). */
export interface RouteDefinition<P extends string, S extends RequestSchemas> extends RouteFields {
  /**
   * Segments starting with `:` are parameters, e.g. `/v3/files/:network/:id`. A last one ending
   * in `*` takes the rest of the path: none or more segments, undecoded (the gateway decodes its own).
   */
  path: P
  request?: S
  handle(ctx: RequestContext, input: TypedInput<P, S>): Promise<Response>
}

/** A route of the table: its request schemas compiled, its handler taking checked input. */
export interface Route extends RouteFields {
  path: string
  request: Omit<RequestSchemas, 'params'> & { params: TObject }
  handle(ctx: RequestContext, input: RouteInput): Promise<Response>
}

/**
 * Declares a route: its request schemas, its responses and its handler in one place. The handler
 * receives the request's params, query, headers and JSON body already checked and typed by those
 * schemas; `/openapi.json` publishes the same schemas.
 *
 * ```ts
 * defineRoute({
 *   method: 'PUT', path: '/v3/files/:network/:id', auth: 'org:files:write', summary: 'Update a file',
 *   tags: ['Files'],
 *   request: { params: { network: NetworkSchema }, body: FileUpdate },
 *   responses: okData(FileObject),
 *   handle: async ({ service, actor }, { params, body }) => data(...),
 * })
 * ```
 */
export function defineRoute<const P extends string, S extends RequestSchemas = Record<never, never>>(
  definition: RouteDefinition<P, S>,
): Route {
  const names = [...definition.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)
  const given = definition.request?.params ?? {}
  for (const name of Object.keys(given)) {
    if (!names.includes(name)) throw new Error(`${definition.path} has no :${name} segment`)
  }
  const params = Type.Object(Object.fromEntries(names.map((name) => [name, given[name] ?? Type.String()])))
  return {
    ...definition,
    request: { ...definition.request, params },
    handle: definition.handle as Route['handle'],
  }
}

interface CompiledRoute {
  route: Route
  segments: string[]
}

export type RouteMatch =
  | { route: Route; params: Record<string, string> }
  | { allowed: string[]; gateway: boolean }
  | undefined

/**
 * Matches a request against the route table: the routes of its host (the API's by default) whose
 * pattern and guard accept its path. Literal segments beat parameters (`/v3/files/sign` wins over
 * `/v3/files/:network`), and parameters a rest of the path, whatever the table's order. A path that
 * exists for other methods yields the allowed methods (for 405), and whether the gateway serves it;
 * one that no route answers, `undefined`.
 */
export function createRouter(routes: readonly Route[]) {
  const compiled: CompiledRoute[] = routes.map((route) => ({ route, segments: split(route.path) }))
  const rank = (segments: string[]) => segments.map((s) => (isRest(s) ? '2' : s.startsWith(':') ? '1' : '0')).join('')
  const key = ({ route, segments }: CompiledRoute) => `${rank(segments)}${route.when ? '0' : '1'}`
  compiled.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))

  return (method: string, pathname: string, host: RequestHost = API_HOST): RouteMatch => {
    const parts = split(pathname)
    const allowed: string[] = []
    let gateway = false
    for (const { route, segments } of compiled) {
      if (!(route.hosts ?? DEFAULT_HOSTS).includes(host.kind)) continue
      const params = matchSegments(segments, parts)
      if (!params || (route.when && !route.when(params, { host, pathname }))) continue
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params }
      if (!route.unsupported) allowed.push(route.method)
      if (route.gateway) gateway = true
    }
    return allowed.length > 0 ? { allowed, gateway } : undefined
  }
}

const DEFAULT_HOSTS: readonly RequestHost['kind'][] = ['api']

const isRest = (segment: string) => segment.startsWith(':') && segment.endsWith('*')

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '')
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  const rest = pattern.length > 0 && isRest(pattern.at(-1)!)
  const fixed = rest ? pattern.length - 1 : pattern.length
  if (rest ? parts.length < fixed : parts.length !== fixed) return undefined
  const params: Record<string, string> = {}
  if (rest) params[pattern.at(-1)!.slice(1, -1)] = parts.slice(fixed).join('/')
  for (let i = 0; i < fixed; i++) {
    const expected = pattern[i]!
    const actual = parts[i]!
    if (expected.startsWith(':')) {
      try {
        params[expected.slice(1)] = decodeURIComponent(actual)
      } catch {
        return undefined
      }
    } else if (expected !== actual) return undefined
  }
  return params
}
