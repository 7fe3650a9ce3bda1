import type { FileService, Scope, TokenActor } from '@pinfold/core'
import type { RouteOpenApi } from './openapi/types.js'

export interface RequestContext {
  request: Request
  url: URL
  params: Record<string, string>
  /** The verified caller; routes with `auth: 'public'` get an anonymous placeholder. */
  actor: TokenActor
  signal: AbortSignal
  /** Absolute base URL of this API (including any mount prefix), for links the server returns. */
  publicUrl: string
  /** Host names this deployment answers on itself (the API's, the subdomain gateway's). */
  ownHostnames: readonly string[]
  service: FileService
}

export interface Route {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Segments starting with `:` are parameters, e.g. `/v3/files/:network/:id`. */
  path: string
  /** A scope the bearer token must grant, `'token'` for any valid token, or `'public'` for none. */
  auth: Scope | 'token' | 'public'
  summary: string
  /** Its OpenAPI description (tags, parameters, request body, responses), published at `/openapi.json`. */
  openapi?: RouteOpenApi
  /**
   * Optional guard on the matched parameters: when it answers false the router keeps looking, as
   * if the pattern had not matched. Guarded routes are tried before unguarded ones of equal rank.
   */
  when?(params: Record<string, string>): boolean
  handle(ctx: RequestContext): Promise<Response>
}

interface CompiledRoute {
  route: Route
  segments: string[]
}

export type RouteMatch = { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined

/**
 * Matches a path against the route table. Literal segments beat parameters (`/v3/files/sign`
 * wins over `/v3/files/:network`) whatever the table's order. A path that exists for other
 * methods yields the allowed methods (for 405).
 */
export function createRouter(routes: readonly Route[]) {
  const compiled: CompiledRoute[] = routes.map((route) => ({ route, segments: split(route.path) }))
  const rank = (segments: string[]) => segments.map((s) => (s.startsWith(':') ? '1' : '0')).join('')
  const key = ({ route, segments }: CompiledRoute) => `${rank(segments)}${route.when ? '0' : '1'}`
  compiled.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))

  return (method: string, pathname: string): RouteMatch => {
    const parts = split(pathname)
    const allowed: string[] = []
    for (const { route, segments } of compiled) {
      const params = matchSegments(segments, parts)
      if (!params || (route.when && !route.when(params))) continue
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params }
      allowed.push(route.method)
    }
    return allowed.length > 0 ? { allowed } : undefined
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '')
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
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
