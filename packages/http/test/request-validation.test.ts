import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, mintOperatorToken, mintToken, SCOPES } from '@pinfold/core'
import fc from 'fast-check'
import type { TObject, TSchema } from 'typebox'
import Value from 'typebox/value'
import { beforeAll, describe, expect, it } from 'vitest'
import { createFetchHandler } from '../src/index.js'
import type { Route } from '../src/router.js'
import { routes } from '../src/routes.js'

/**
 * Every route's request schemas guard it: a request with a wrong value in any field of its path,
 * query, JSON body or multipart form answers 400 with a JSON `{error}` naming that field — never a
 * 5xx — while the query spellings the official SDK sends keep working.
 */

const SECRET = 'pinfold-test-secret-0123456789abcdef0123456789'

type Json = Record<string, unknown>

const SIGNING_SECRET = 'pinfold-signing-secret-0123456789abcdef01234'
const service = createFileService({
  records: createMemoryRecordStore(),
  blobs: createMemoryBlobStore(),
  signingSecret: SIGNING_SECRET,
})
const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: SECRET }) })
let token: string
/** The admin API's routes answer only an operator (anyone else gets a 404 before validation). */
let operatorToken: string
beforeAll(async () => {
  token = await mintToken(SECRET, { sub: 'alice', org: 'acme', scopes: SCOPES, expiresIn: '1h' })
  operatorToken = await mintOperatorToken(SIGNING_SECRET, { sub: 'ops', expiresIn: '1h' })
})

const key = (route: Route) => `${route.method} ${route.path}`

/** The route's path with a valid value in every parameter. */
const pathOf = (route: Route, values: Record<string, string> = {}) =>
  route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? (name === 'network' ? 'public' : 'x')),
  )

function send(route: Route, init: { path?: string; search?: string; body?: FormData | string; json?: unknown } = {}) {
  const headers = new Headers({ authorization: `Bearer ${route.auth === 'operator' ? operatorToken : token}` })
  let body = init.body
  if (init.json !== undefined) {
    body = JSON.stringify(init.json)
    headers.set('content-type', 'application/json')
  }
  const url = `http://api.test${init.path ?? pathOf(route)}${init.search ?? ''}`
  return handler(new Request(url, { method: route.method, headers, ...(body === undefined ? {} : { body }) }))
}

/**
 * A refusal's message: `{"error": "…"}`, or, on the Pinning Service API's routes (which write their
 * own failures, `Route.answerError`), the spec's `{"error": {"reason": "BAD_REQUEST", "details": "…"}}`.
 */
function messageOf(body: { error: unknown }): unknown {
  const { error } = body
  if (typeof error !== 'object' || error === null) return error
  const { reason, details } = error as { reason?: unknown; details?: unknown }
  return reason === 'BAD_REQUEST' ? details : error
}

/** Asserts a 400 whose JSON error names `field`, and returns the message. */
async function expectRefusal(res: Response, field: string, what: string) {
  const text = await res.text()
  expect({ what, status: res.status }).toEqual({ what, status: 400 })
  expect(res.headers.get('content-type'), what).toMatch(/^application\/json/)
  const error = messageOf(JSON.parse(text))
  expect(typeof error, what).toBe('string')
  expect(error, what).toContain(field)
  return error as string
}

/** A valid value for a schema: the first choice of every union, every property filled in. */
function example(schema: Json): unknown {
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  if (schema.contentMediaType === 'application/json') return JSON.stringify(example(schema.contentSchema as Json))
  if (schema.type === 'object') {
    // every property: that also satisfies an object's "give one of" rules (anyOf of required lists)
    return Object.fromEntries(
      Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([k, v]) => [k, example(v)]),
    )
  }
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (branches) return example(branches[0]!)
  switch (schema.type) {
    case 'array':
      // as few items as the schema allows
      return Array.from({ length: (schema.minItems as number | undefined) ?? 0 }, () => example(schema.items as Json))
    case 'integer':
    case 'number':
      return (schema.minimum as number | undefined) ?? 1
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return schema.pattern ? '1' : 'x'
  }
}

/** A JSON body schema's shapes: the `then` and `else` of a conditional body, or the body itself. */
function bodyVariants(schema: Json): { label: string; schema: TObject; fixed: string[] }[] {
  if (schema.if) {
    const fixed = ((schema.if as Json).required ?? []) as string[]
    return [
      { label: 'then', schema: schema.then as unknown as TObject, fixed },
      { label: 'else', schema: schema.else as unknown as TObject, fixed: [] },
    ]
  }
  return [{ label: 'body', schema: schema as unknown as TObject, fixed: [] }]
}

const WRONG_JSON: unknown[] = [{ nested: true }, ['x'], 'text', 12345, 1.5, -1, true, null]

/** Texts that a text input of this schema cannot be (an integer's `abc`, an enum's `bogus`). */
function wrongTexts(schema: Json): string[] {
  if (schema.contentMediaType === 'application/json') return ['{nope', '[1,2]', '42', '"text"']
  if (Array.isArray(schema.enum)) return ['bogus']
  const types = new Set([schema.type, ...((schema.anyOf ?? []) as Json[]).map((b) => b.type)])
  const out: string[] = []
  if (types.has('integer') || types.has('number')) {
    if (!types.has('string')) out.push('abc', '1.5e', '0x10')
    if (types.has('integer') && !types.has('string')) out.push('1.5')
    if (typeof schema.minimum === 'number') out.push(String(schema.minimum - 1))
    if (typeof schema.maximum === 'number') out.push(String(schema.maximum + 1))
  }
  if (types.has('boolean')) out.push('maybe', 'yes', '1')
  if (types.has('string') && typeof schema.pattern === 'string') out.push('not digits!')
  return out
}

const properties = (schema: TObject | undefined) => Object.entries((schema?.properties ?? {}) as Record<string, Json>)

describe('request schemas - wrong values are 400s naming the field', () => {
  const withBody = routes.filter((route) => route.request.body)

  it('every route with a JSON body, query or form is covered below', () => {
    expect(withBody.length).toBeGreaterThan(10)
    expect(routes.filter((route) => route.request.query).length).toBeGreaterThan(5)
    expect(routes.filter((route) => route.request.form).length).toBe(3)
  })

  it.each(withBody.map((route) => [key(route), route] as const))(
    '%s - a wrong type in each body field, or a missing required field',
    async (_, route) => {
      const root = route.request.body as TSchema
      for (const variant of bodyVariants(root as Json)) {
        const base = example(variant.schema as unknown as Json) as Json
        expect(Value.Check(root, base), `${variant.label} example ${JSON.stringify(base)}`).toBe(true)
        for (const [field, schema] of properties(variant.schema)) {
          for (const wrong of WRONG_JSON.filter((value) => !Value.Check(schema as TSchema, value))) {
            const body = { ...base, [field]: wrong }
            await expectRefusal(await send(route, { json: body }), field, `${key(route)} ${JSON.stringify(body)}`)
          }
        }
        for (const field of (variant.schema.required ?? []) as string[]) {
          if (variant.fixed.includes(field)) continue
          const { [field]: _, ...body } = base
          const message = await expectRefusal(
            await send(route, { json: body }),
            field,
            `${key(route)} without ${field}`,
          )
          expect(message).toBe(`${field} is required`)
        }
      }
    },
  )

  it.each(withBody.map((route) => [key(route), route] as const))(
    '%s - arbitrary JSON in its fields: 400 naming a field exactly when the schema refuses, never a 500',
    async (_, route) => {
      const root = route.request.body as TSchema
      const variants = bodyVariants(root as Json)
      const named = new Set(variants.flatMap((variant) => properties(variant.schema).map(([name]) => name)))
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...variants),
          fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
          fc.func(fc.jsonValue({ maxDepth: 2 })),
          async (variant, extra, valueFor) => {
            const base = example(variant.schema as unknown as Json) as Json
            const fields = properties(variant.schema).map(([name]) => name)
            const body: Json = { ...extra, ...base }
            for (const field of fields) if (!variant.fixed.includes(field)) body[field] = valueFor(field)
            const res = await send(route, { json: body })
            const text = await res.text()
            if (!Value.Check(root, body)) {
              expect({ status: res.status, body: JSON.stringify(body) }).toEqual({
                status: 400,
                body: JSON.stringify(body),
              })
              const error = messageOf(JSON.parse(text)) as string
              expect(
                [...named, 'request body'].some((field) => error.includes(field)),
                error,
              ).toBe(true)
            } else {
              expect(res.status, text).not.toBe(500)
            }
          },
        ),
        { numRuns: 40 },
      )
    },
  )

  const withQuery = routes.filter((route) => route.request.query)
  it.each(withQuery.map((route) => [key(route), route] as const))(
    '%s - a value its query schema cannot read',
    async (_, route) => {
      for (const [field, schema] of properties(route.request.query)) {
        for (const wrong of wrongTexts(schema)) {
          const search = `?${new URLSearchParams({ [field]: wrong })}`
          await expectRefusal(await send(route, { search }), field, `${key(route)}${search}`)
        }
      }
    },
  )

  /** A guarded route of the same method and depth takes the paths this one refuses (`/v3/files/{upload id}/…`). */
  const shadowed = (route: Route) =>
    routes.some(
      (other) =>
        other !== route &&
        other.when &&
        other.method === route.method &&
        other.path.split('/').length === route.path.split('/').length,
    )
  const withEnumParam = routes.filter(
    (route) => !shadowed(route) && properties(route.request.params).some(([, s]) => wrongTexts(s).length),
  )
  it.each(withEnumParam.map((route) => [key(route), route] as const))(
    '%s - a path parameter its schema refuses',
    async (_, route) => {
      for (const [field, schema] of properties(route.request.params)) {
        for (const wrong of wrongTexts(schema)) {
          const path = pathOf(route, { [field]: wrong })
          await expectRefusal(await send(route, { path }), field, `${key(route)} ${path}`)
        }
      }
    },
  )

  /** A multipart body with one small file and `fields`. */
  const form = (fields: Record<string, string>) => {
    const body = new FormData()
    body.append('file', new Blob(['form field checks']), 'a.txt')
    for (const [name, value] of Object.entries(fields)) body.append(name, value)
    return body
  }

  /** Wrong texts of a form field, and of each field of the JSON it holds (`pinataOptions.cidVersion`). */
  function wrongFormTexts(field: string, schema: Json): [string, string][] {
    const out = wrongTexts(schema).map((text): [string, string] => [field, text])
    const content = schema.contentSchema as TObject | undefined
    if (content) {
      for (const [inner, innerSchema] of properties(content)) {
        for (const wrong of WRONG_JSON.filter((value) => !Value.Check(innerSchema as TSchema, value))) {
          out.push([`${field}.${inner}`, JSON.stringify({ [inner]: wrong })])
        }
      }
    }
    return out
  }

  it.each(routes.filter((route) => route.request.form).map((route) => [key(route), route] as const))(
    '%s - a form field its schema refuses',
    async (_, route) => {
      let path = pathOf(route)
      if (route.path === '/v3/files/:id') {
        // a signed URL: its signature is checked before a byte of the form is read
        const signed = await handler(
          new Request('http://api.test/v3/files/sign', {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
            body: JSON.stringify({ expires: 600 }),
          }),
        )
        const url = new URL(((await signed.json()) as { data: string }).data)
        path = `${url.pathname}${url.search}`
      }
      for (const [field, schema] of properties(route.request.form)) {
        for (const [named, text] of wrongFormTexts(field, schema)) {
          const res = await send(route, { path, body: form({ [field]: text }) })
          await expectRefusal(res, named, `${key(route)} ${field}=${text}`)
        }
      }
    },
  )
})

describe('request schemas - what the SDK sends still reads', () => {
  const route = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)!

  it.each([
    // the query string the official SDK's files.list() was observed sending, with a page token of
    // this server's making instead of the observed `tok` (a token it did not issue is a 400)
    [
      'GET',
      '/v3/files/:network',
      '?limit=10&name=n&group=g&order=DESC&pageToken=WyIyMDI2LTAxLTAxVDAwOjAwOjAwLjAwMFoiLCIwMTkwMDAwMC0wMDAwLTcwMDAtODAwMC0wMDAwMDAwMDAwMDAiXQ&cidPending=true&keyvalues%5Bk%5D=v',
    ],
    // what files.public.queue() sends
    ['GET', '/v3/files/public/pin_by_cid', '?includesCount=false&cid=bafy&status=prechecking&sort=DSC&limit=5'],
    ['GET', '/v3/files/:network', '?keyvalues[env]=prod&metadata[team]=a&sort=DSC&limit=5'],
    ['GET', '/v3/files/:network', '?group=null&order=asc&name=&limit='],
    ['GET', '/v3/groups/:network', '?pageToken=&isPublic=true&name=&limit=5'],
    ['GET', '/v3/groups/:network', '?is_public=false'],
  ])('%s %s%s answers 200', async (method, path, search) => {
    const res = await send(route(method, path), { search })
    expect(res.status, await res.clone().text()).toBe(200)
  })

  it('a list query says which parameter is wrong, in words', async () => {
    const list = route('GET', '/v3/files/:network')
    const error = async (search: string) => ((await (await send(list, { search })).json()) as { error: string }).error
    expect(await error('?limit=abc')).toBe('limit must be an integer')
    expect(await error('?limit=0')).toBe('limit must be at least 1')
    expect(await error('?limit=5000')).toBe('limit must be at most 1000')
    expect(await error('?cidPending=maybe')).toBe('cidPending must be true or false')
    expect(await error('?order=sideways')).toBe('order must be "ASC", "DESC", "DSC", "asc", "desc" or "dsc"')
    const bad = await send(list, { path: '/v3/files/intranet' })
    expect(await bad.json()).toEqual({ error: 'network must be "public" or "private"' })
  })

  it('a JSON body says which field is wrong, down to an array item', async () => {
    const create = route('POST', '/v3/x402/payment_instructions')
    const res = await send(create, { json: { name: 'x', payment_requirements: [{ amount: { n: 1 } }] } })
    expect(await res.json()).toEqual({ error: 'payment_requirements[0].amount must be a string or an integer' })
    const group = route('PUT', '/v3/groups/:network/:id')
    expect(await (await send(group, { json: {} })).json()).toEqual({
      error: 'request body has nothing to update: give name or is_public',
    })
    const sign = route('POST', '/v3/files/sign')
    expect(await (await send(sign, { json: { url: 'x', method: 7 } })).json()).toEqual({
      error: 'method must be a string',
    })
    expect(await (await send(sign, { json: {} })).json()).toEqual({ error: 'expires is required' })
  })
})
