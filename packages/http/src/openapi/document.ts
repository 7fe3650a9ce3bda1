import type { TObject, TSchema } from 'typebox'
import type { Route } from '../router.js'
import { namedSchemas } from '../schema.js'
import { errorResponse } from './responses.js'
import type { JsonSchema, OpenApiParameter, OpenApiRequestBody, OpenApiResponse } from './types.js'

export interface OpenApiDocumentOptions {
  /** Absolute base URL of the API (the fetch handler's `publicUrl`), published as the one server. */
  serverUrl?: string | undefined
  version?: string | undefined
}

const PATH_PARAMETER = /:([A-Za-z0-9_]+)\*?/g

/** `/v3/files/:network/:id` → `/v3/files/{network}/{id}`; `/ipfs/:path*` → `/ipfs/{path}` */
export function openApiPath(path: string): string {
  return path.replace(PATH_PARAMETER, '{$1}')
}

/** The OpenAPI operation id of a route, e.g. `get_v3_files_network_id`. */
export function operationId(route: Pick<Route, 'method' | 'path'>): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/^:|\*$/g, '').replace(/[^A-Za-z0-9]+/g, '_'))
  return [route.method.toLowerCase(), ...words].join('_')
}

/**
 * Builds the OpenAPI 3.1 document of a route table: one operation per route whose parameters and
 * request body are the route's own request schemas (the ones its requests are checked against),
 * the bearer scheme where a route needs a token, and the `{error}` body for every failure. Named
 * schemas (`named()`) are published once under `components.schemas` and referenced by `$ref`.
 */
export function buildOpenApiDocument(routes: readonly Route[], options: OpenApiDocumentOptions = {}) {
  const { paths, schemas } = describeRoutes(routes)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pinfold',
      version: options.version ?? '0.1.0',
      summary: "Self-hostable IPFS file storage speaking Pinata's v3 API",
      license: { name: 'MIT', identifier: 'MIT' },
    },
    ...(options.serverUrl && { servers: [{ url: options.serverUrl }] }),
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A token minted by `pinfold token` (or verified through the configured JWKS)',
        },
      },
    },
  }
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>

const described = new WeakMap<readonly Route[], ReturnType<typeof describe>>()

/** The paths and component schemas of a route table (the same for every server URL: built once). */
function describeRoutes(routes: readonly Route[]) {
  let result = described.get(routes)
  if (!result) {
    result = describe(routes)
    described.set(routes, result)
  }
  return result
}

function describe(routes: readonly Route[]) {
  const toJson = referencing(namedSchemas())
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const path = openApiPath(route.path)
    const method = route.method.toLowerCase()
    const item = paths[path] ?? {}
    paths[path] = item
    if (item[method]) throw new Error(`two routes document ${route.method} ${path}`)
    item[method] = toJson(operation(route))
  }
  const schemas: Record<string, JsonSchema> = {}
  for (const [name, schema] of namedSchemas()) schemas[name] = toJson(schema, true)
  return { paths, schemas }
}

/**
 * A copy as plain JSON in which every schema equal to a named one (TypeBox copies a schema it
 * makes optional, so equality is by content) becomes a `$ref` to it.
 */
function referencing(named: ReadonlyMap<string, TSchema>) {
  const names = new Map<string, string>()
  for (const [name, schema] of named) {
    const key = JSON.stringify(schema)
    const other = names.get(key)
    if (other) throw new Error(`the named schemas ${other} and ${name} are the same`)
    names.set(key, name)
  }
  const copy = (value: unknown, top: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => copy(v, false))
    if (typeof value !== 'object' || value === null) return value
    const name = top ? undefined : names.get(JSON.stringify(value))
    if (name) return { $ref: `#/components/schemas/${name}` }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v, false)]))
  }
  return <T>(value: T, top = false) => copy(value, top) as T
}

function operation(route: Route) {
  const { request } = route
  const parameters: OpenApiParameter[] = [
    ...parametersOf(request.params, 'path'),
    ...parametersOf(request.query, 'query'),
    ...parametersOf(request.headers, 'header'),
  ]
  const requestBody = requestBodyOf(route)
  const responses: Record<string, OpenApiResponse> = { ...route.responses }
  if (route.auth === 'operator') {
    responses['404'] ??= errorResponse('Not an operator token: the admin API answers as if it did not exist')
  } else if (route.auth !== 'public') {
    responses['401'] ??= errorResponse('Missing, invalid or expired token')
    if (route.auth !== 'token') responses['403'] ??= errorResponse(`The token lacks the ${route.auth} scope`)
  }
  responses['4XX'] ??= errorResponse('Invalid request, or no such resource for this tenant')
  responses['5XX'] ??= errorResponse('Unexpected failure or unavailable dependency')
  const scope =
    route.auth === 'public'
      ? 'No token needed.'
      : route.auth === 'token'
        ? 'Any valid token.'
        : route.auth === 'operator'
          ? 'An operator token (`pinfold token --operator`); to any other caller this path does not exist (404).'
          : `Scope: \`${route.auth}\`.`
  return {
    operationId: operationId(route),
    summary: route.summary,
    description: [route.description, scope].filter(Boolean).join('\n\n'),
    tags: route.tags,
    security: route.auth === 'public' ? [] : [{ bearer: [] }],
    'x-pinfold-auth': route.auth,
    ...(parameters.length > 0 && { parameters }),
    ...(requestBody && { requestBody }),
    responses,
  }
}

/**
 * One parameter per property of an object schema; an object-valued query parameter is a
 * `deepObject` (`keyvalues[env]=prod`).
 */
export function parametersOf(schema: TObject | undefined, where: OpenApiParameter['in']): OpenApiParameter[] {
  if (!schema) return []
  const required = new Set<string>(schema.required as string[] | undefined)
  return Object.entries(schema.properties as Record<string, TSchema & { description?: string; type?: unknown }>).map(
    ([name, property]) => ({
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(property.description !== undefined && { description: property.description }),
      ...(where === 'query' && property.type === 'object' && { style: 'deepObject' as const, explode: true }),
      schema: property,
    }),
  )
}

/** The request body a route reads: JSON, multipart or a raw stream. */
export function requestBodyOf(route: Route): OpenApiRequestBody | undefined {
  const { body, form, formOptional, stream } = route.request
  if (body) return { required: true, content: { 'application/json': { schema: body } } }
  if (form) return { required: !formOptional, content: { 'multipart/form-data': { schema: form } } }
  if (stream) {
    const schema = { type: 'string', contentMediaType: 'application/octet-stream' }
    return {
      required: true,
      ...(stream.description && { description: stream.description }),
      content: { [stream.mediaType]: { schema } },
    }
  }
  return undefined
}
