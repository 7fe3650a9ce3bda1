import { describe, expect, it } from 'vitest'
import { buildOpenApiDocument, openApiPath } from '../src/openapi/document.js'
import type { Route } from '../src/router.js'
import { routes } from '../src/routes.js'

/**
 * The OpenAPI document is made from the very schemas requests are checked against: for every
 * route, each parameter and request body of its operation is, once `$ref`s are resolved, exactly
 * one of the route's request schemas, and nothing else is.
 */

const document = buildOpenApiDocument(routes)
const components = document.components.schemas as Record<string, unknown>

type Json = Record<string, unknown>

/** `$ref`s replaced by the components they name. */
function resolved(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolved)
  if (typeof value !== 'object' || value === null) return value
  const ref = (value as Json).$ref
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '')
    expect(components, ref).toHaveProperty(name)
    return resolved(components[name])
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v)]))
}

/** A schema as JSON (TypeBox's own markers are not enumerable, so not part of it). */
const json = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as unknown

const key = (route: Route) => `${route.method} ${route.path}`

function operationOf(route: Route) {
  const item = (document.paths as Record<string, Record<string, Json>>)[openApiPath(route.path)]
  const operation = item?.[route.method.toLowerCase()]
  expect(operation, key(route)).toBeDefined()
  return operation as {
    parameters?: { name: string; in: string; required: boolean; schema: unknown; style?: string }[]
    requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> }
    responses: Record<string, { content?: Record<string, { schema: unknown }> }>
  }
}

function expectedParameters(route: Route) {
  const { params, query, headers } = route.request
  const each = (schema: typeof query, where: string) =>
    Object.entries((schema?.properties ?? {}) as Record<string, unknown>).map(([name, property]) => ({
      name,
      in: where,
      required: where === 'path' || ((schema?.required ?? []) as string[]).includes(name),
      schema: json(property),
    }))
  return [...each(params, 'path'), ...each(query, 'query'), ...each(headers, 'header')]
}

describe('route schemas are the OpenAPI document', () => {
  it.each(routes.map((route) => [key(route), route] as const))(
    '%s - its parameters are exactly its params, query and header schemas',
    (_, route) => {
      const actual = (operationOf(route).parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required,
        schema: resolved(p.schema),
      }))
      expect(actual).toEqual(expectedParameters(route))
      // every `:name` segment, and only those, is a path parameter
      const segments = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1])
      expect(actual.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(segments)
    },
  )

  it.each(routes.map((route) => [key(route), route] as const))(
    '%s - its request body is exactly its body, form or stream schema',
    (_, route) => {
      const body = operationOf(route).requestBody
      const { body: jsonBody, form, formOptional, stream } = route.request
      if (jsonBody) {
        expect(body?.required).toBe(true)
        expect(Object.keys(body!.content)).toEqual(['application/json'])
        expect(resolved(body!.content['application/json']!.schema)).toEqual(json(jsonBody))
      } else if (form) {
        expect(body?.required).toBe(!formOptional)
        expect(Object.keys(body!.content)).toEqual(['multipart/form-data'])
        expect(resolved(body!.content['multipart/form-data']!.schema)).toEqual(json(form))
      } else if (stream) {
        expect(Object.keys(body!.content)).toEqual([stream.mediaType])
      } else {
        expect(body).toBeUndefined()
      }
    },
  )

  it.each(routes.map((route) => [key(route), route] as const))(
    '%s - its documented responses are exactly its response schemas',
    (_, route) => {
      const documented = operationOf(route).responses
      for (const [status, response] of Object.entries(route.responses)) {
        expect(resolved(documented[status]), `${key(route)} ${status}`).toEqual(json(response))
      }
    },
  )

  it('named schemas - each is published once and referenced, never copied, where a route uses it', () => {
    const text = JSON.stringify(document.paths)
    for (const [name, schema] of Object.entries(components)) {
      expect(text.includes(JSON.stringify(schema)), `${name} is inlined somewhere`).toBe(false)
    }
    const refs = new Set(text.match(/#\/components\/schemas\/[A-Za-z0-9]+/g) ?? [])
    for (const ref of refs) expect(components).toHaveProperty(ref.split('/').pop()!)
  })
})
