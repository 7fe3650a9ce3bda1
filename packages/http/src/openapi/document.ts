import type { Route } from '../router.js'
import { componentSchemas, errorResponse } from './schemas.js'
import type { JsonSchema, OpenApiParameter, OpenApiResponse } from './types.js'

export interface OpenApiDocumentOptions {
  /** Absolute base URL of the API (the fetch handler's `publicUrl`), published as the one server. */
  serverUrl?: string | undefined
  version?: string | undefined
}

const PATH_PARAMETER = /:([A-Za-z0-9_]+)/g

/** `/v3/files/:network/:id` → `/v3/files/{network}/{id}` */
export function openApiPath(path: string): string {
  return path.replace(PATH_PARAMETER, '{$1}')
}

/** The OpenAPI operation id of a route, e.g. `get_v3_files_network_id`. */
export function operationId(route: Pick<Route, 'method' | 'path'>): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/^:/, '').replace(/[^A-Za-z0-9]+/g, '_'))
  return [route.method.toLowerCase(), ...words].join('_')
}

/**
 * Builds the OpenAPI 3.1 document of a route table: one operation per route, path parameters
 * derived from `:name` segments, the bearer scheme where a route needs a token, and the `{error}`
 * body for every failure.
 */
export function buildOpenApiDocument(routes: readonly Route[], options: OpenApiDocumentOptions = {}) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const path = openApiPath(route.path)
    const method = route.method.toLowerCase()
    const item = paths[path] ?? {}
    paths[path] = item
    if (item[method]) throw new Error(`two routes document ${route.method} ${path}`)
    item[method] = operation(route)
  }
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
      schemas: componentSchemas,
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

function operation(route: Route) {
  const doc = route.openapi
  const parameters: OpenApiParameter[] = [...pathParameters(route), ...(doc?.parameters ?? [])]
  const responses: Record<string, OpenApiResponse> = { ...(doc?.responses ?? { default: { description: 'OK' } }) }
  if (route.auth !== 'public') {
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
        : `Scope: \`${route.auth}\`.`
  return {
    operationId: operationId(route),
    summary: route.summary,
    description: [doc?.description, scope].filter(Boolean).join('\n\n'),
    tags: doc?.tags ?? [defaultTag(route.path)],
    security: route.auth === 'public' ? [] : [{ bearer: [] }],
    'x-pinfold-auth': route.auth,
    ...(parameters.length > 0 && { parameters }),
    ...(doc?.requestBody && { requestBody: doc.requestBody }),
    responses,
  }
}

function pathParameters(route: Route): OpenApiParameter[] {
  return [...route.path.matchAll(PATH_PARAMETER)].map(([, name]) => {
    const override = route.openapi?.pathParameters?.[name!]
    const schema: JsonSchema =
      override?.schema ?? (name === 'network' ? { $ref: '#/components/schemas/Network' } : { type: 'string' })
    return {
      name: name!,
      in: 'path' as const,
      required: true,
      schema,
      ...(override?.description && { description: override.description }),
    }
  })
}

function defaultTag(path: string): string {
  const first = path.split('/').filter((s) => s && s !== 'v3' && !s.startsWith(':'))[0] ?? 'api'
  return first.charAt(0).toUpperCase() + first.slice(1)
}
