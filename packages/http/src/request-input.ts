import { invalid } from '@pinfold/core'
import type { Static, TObject, TSchema } from 'typebox'
import Compile, { type Validator } from 'typebox/compile'
import { readJsonObject } from './body.js'
import type { Route, RouteInput } from './router.js'

/**
 * Requests checked against their route's schemas before the handler runs. Text inputs (path
 * parameters, query parameters, headers, multipart fields) are read as their schema says:
 * integers and booleans from their text, JSON from a `contentMediaType: application/json` string;
 * JSON bodies are checked as they are. A mismatch is a 400 naming the first field that is wrong.
 */

type Json = Record<string, unknown>

const validators = new WeakMap<TSchema, Validator>()

function validator(schema: TSchema): Validator {
  let compiled = validators.get(schema)
  if (!compiled) {
    // JIT where the runtime allows `new Function`, an interpreter where it does not (workers, CSP)
    compiled = Compile(schema)
    validators.set(schema, compiled)
  }
  return compiled
}

/**
 * `value` as `schema` types it, or `INVALID_INPUT` naming the first field that does not match:
 * `limit must be an integer`, `payment_requirements[0].amount must be a string`, `url is required`.
 * `subject` names the value itself where the failure is not in a field (`request body`).
 */
export function check<T extends TSchema>(schema: T, value: unknown, subject = 'request body'): Static<T> {
  if (validator(schema).Check(value)) return value as Static<T>
  throw invalid(failure(schema, value, [], subject))
}

/** Parses and checks a matched request against its route's schemas. */
export async function parseRequest(
  route: Route,
  request: Request,
  url: URL,
  params: Record<string, string>,
): Promise<RouteInput> {
  const { request: schemas } = route
  const input: RouteInput = {
    params: check(
      schemas.params,
      textObject(schemas.params, (name) => params[name]),
      'path',
    ),
    query: {},
    headers: {},
    body: undefined,
  }
  if (schemas.query) input.query = check(schemas.query, queryObject(schemas.query, url.searchParams), 'query')
  if (schemas.headers) {
    const headers = textObject(schemas.headers, (name) => request.headers.get(name) ?? undefined)
    input.headers = check(schemas.headers, headers, 'headers')
  }
  if (schemas.body) input.body = check(schemas.body, await readJsonObject(request, schemas.maxBodyBytes))
  return input
}

/**
 * One multipart text field (or tus `Upload-Metadata` entry) read and checked against its schema
 * in `form`; `undefined` for a field the form does not declare (clients send extras, ignored).
 */
export function formField<F extends TObject, K extends keyof F['properties'] & string>(
  form: F,
  name: K,
  text: string,
): Static<F['properties'][K]>
export function formField(form: TObject, name: string, text: string): unknown
export function formField(form: TObject, name: string, text: string): unknown {
  const property = (form.properties as Record<string, TSchema>)[name]
  if (!property || !Object.hasOwn(form.properties, name)) return undefined
  const value = fromText(property, text, name)
  // a JSON field's value is checked against the schema of its content
  const schema = ((property as Json).contentSchema as TSchema | undefined) ?? property
  if (validator(schema).Check(value)) return value
  throw invalid(failure(schema, value, [name], name))
}

// ---------------------------------------------------------------------------------------------
// Text inputs
// ---------------------------------------------------------------------------------------------

const properties = (schema: TObject) => Object.entries(schema.properties as Record<string, TSchema>)

function textObject(schema: TObject, read: (name: string) => string | undefined): Json {
  const out: Json = {}
  for (const [name, property] of properties(schema)) {
    const text = read(name)
    if (text !== undefined) out[name] = fromText(property, text, name)
  }
  return out
}

/**
 * Query parameters by their schema: an array collects every `name=` (repeated keys), an object
 * collects `name[key]=value` (Pinata's `keyvalues[env]=prod`), anything else takes the first
 * `name=`. An empty scalar (`?name=`) counts as absent, as the SDK leaves falsy options out.
 */
function queryObject(schema: TObject, search: URLSearchParams): Json {
  const out: Json = {}
  for (const [name, property] of properties(schema)) {
    const s = property as Json
    if (s.type === 'array') {
      const values = search.getAll(name).filter((v) => v !== '')
      if (values.length > 0) out[name] = values.map((v) => fromText((s.items ?? {}) as TSchema, v, name))
    } else if (s.type === 'object') {
      const entries: [string, string][] = []
      for (const [key, value] of search) {
        const field = bracketKey(key, name)
        if (field !== undefined) entries.push([field, value])
      }
      // fromEntries: a key such as `__proto__` is an own property, never the prototype
      if (entries.length > 0) out[name] = Object.fromEntries(entries)
    } else {
      const value = search.get(name)
      if (value !== null && value !== '') out[name] = fromText(property, value, name)
    }
  }
  return out
}

/** `keyvalues[env]` → `env` for `name` = `keyvalues`. */
function bracketKey(key: string, name: string): string | undefined {
  if (!key.startsWith(`${name}[`) || !key.endsWith(']') || key.length < name.length + 3) return undefined
  return key.slice(name.length + 1, -1)
}

/** The types a schema (or the branches of its union) admits. */
function typesOf(schema: Json): Set<unknown> {
  const types = new Set<unknown>()
  const add = (s: Json) => {
    if (Array.isArray(s.type)) for (const t of s.type) types.add(t)
    else if (s.type !== undefined) types.add(s.type)
    for (const branch of [...((s.anyOf ?? []) as Json[]), ...((s.oneOf ?? []) as Json[])]) add(branch)
  }
  add(schema)
  return types
}

/** A text input as its schema reads it; text no reading fits stays text, for the check to refuse. */
function fromText(schema: TSchema, text: string, field: string): unknown {
  const s = schema as Json
  if (s.contentMediaType === 'application/json') {
    try {
      return JSON.parse(text)
    } catch {
      throw invalid(`${field} must be a JSON-encoded string`)
    }
  }
  const types = typesOf(s)
  if ((types.has('integer') || types.has('number')) && /^-?\d+$/.test(text)) return Number(text)
  if (types.has('number') && /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/.test(text)) return Number(text)
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

interface SchemaError {
  keyword: string
  schemaPath: string
  instancePath: string
  params: Json
}

/** The message of the first error, at the field it concerns. */
function failure(schema: TSchema, value: unknown, at: (string | number)[], subject: string): string {
  const errors = validator(schema).Errors(value) as SchemaError[]
  // a failing union reports each branch too: the union's own error says it better
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.schemaPath)
  for (const error of errors) {
    if (unions.some((u) => error.schemaPath.startsWith(`${u}/anyOf/`) || error.schemaPath.startsWith(`${u}/oneOf/`)))
      continue
    const path = [...at, ...pointer(error.instancePath)]
    const node = resolve(schema, error.schemaPath)
    if (error.keyword === 'if') {
      // the `then` or `else` that applied did not match: why, from that branch itself
      const branch = node?.[String(error.params.failingKeyword)] as TSchema | undefined
      if (branch) return failure(branch, valueAt(value, pointer(error.instancePath)), path, subject)
    }
    return message(error, node, path, subject)
  }
  return `${subject} is not valid`
}

function message(error: SchemaError, node: Json | undefined, path: (string | number)[], subject: string): string {
  const p = error.params
  if (error.keyword === 'required') {
    const missing = (p.requiredProperties as string[] | undefined)?.[0] ?? String(p.property ?? '')
    return `${fieldName([...path, missing], subject)} is required`
  }
  const field = fieldName(path, subject)
  if (typeof node?.errorMessage === 'string') return `${field} ${node.errorMessage}`
  switch (error.keyword) {
    case 'type':
    case 'anyOf':
    case 'oneOf':
    case 'const':
    case 'enum':
      return `${field} must be ${describe(node ?? {})}`
    case 'minimum':
      return `${field} must be at least ${p.limit}`
    case 'exclusiveMinimum':
      return `${field} must be more than ${p.limit}`
    case 'maximum':
      return `${field} must be at most ${p.limit}`
    case 'exclusiveMaximum':
      return `${field} must be less than ${p.limit}`
    case 'minLength':
      return p.limit === 1 ? `${field} must not be empty` : `${field} must have at least ${p.limit} characters`
    case 'maxLength':
      return `${field} must have at most ${p.limit} characters`
    case 'minItems':
      return `${field} must hold at least ${p.limit} items`
    case 'maxItems':
      return `${field} must hold at most ${p.limit} items`
    case 'pattern':
      return `${field} must match ${p.pattern}`
    case 'format':
      return `${field} must be a ${p.format}`
    default:
      return `${field} is not valid`
  }
}

/** `['payment_requirements', 0, 'amount']` → `payment_requirements[0].amount` */
function fieldName(path: (string | number)[], subject: string): string {
  if (path.length === 0) return subject
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('')
}

/** What a schema admits, as words: `an integer`, `"public" or "private"`. */
function describe(schema: Json): string {
  const words = [...new Set(choices(schema))]
  return words.length === 1 && words[0] === 'a boolean' ? 'true or false' : list(words)
}

function choices(schema: Json): string[] {
  if ('const' in schema) return [JSON.stringify(schema.const)]
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v))
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (branches) return branches.flatMap(choices)
  switch (schema.type) {
    case 'string':
      return [(schema.minLength as number) > 0 ? 'a non-empty string' : 'a string']
    case 'integer':
      return ['an integer']
    case 'number':
      return ['a number']
    case 'boolean':
      return ['a boolean']
    case 'null':
      return ['null']
    case 'object':
      return ['an object']
    case 'array':
      return ['an array']
    default:
      return ['valid']
  }
}

const list = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`

/** `/payment_requirements/0/amount` → `['payment_requirements', 0, 'amount']` */
function pointer(path: string): (string | number)[] {
  if (path === '' || path === '#') return []
  return path
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part))
}

function resolve(schema: TSchema, schemaPath: string): Json | undefined {
  let node: unknown = schema
  for (const part of pointer(schemaPath)) node = (node as Json | undefined)?.[String(part)]
  return typeof node === 'object' && node !== null ? (node as Json) : undefined
}

function valueAt(value: unknown, path: (string | number)[]): unknown {
  let node = value
  for (const part of path) node = (node as Json | undefined)?.[String(part)]
  return node
}
