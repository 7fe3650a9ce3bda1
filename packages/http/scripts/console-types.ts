import { writeFile } from 'node:fs/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildOpenApiDocument } from '../src/openapi/document.js'
import { routes } from '../src/routes.js'

/**
 * Writes the console's wire types (`packages/console/src/api/wire.ts`) from the OpenAPI document:
 * the console is a browser bundle that must not import server code, so it reads the server's
 * shapes as generated TypeScript. `http/test/console-types.test.ts` fails when the file is stale.
 *
 *     npx tsx --conditions source packages/http/scripts/console-types.ts
 */

export const CONSOLE_TYPES_FILE = fileURLToPath(new URL('../../console/src/api/wire.ts', import.meta.url))

const LINE_WIDTH = 120

type Json = Record<string, unknown>

/** The named schemas of the document (`components.schemas`) as one TypeScript interface. */
export function consoleTypes(schemas: Record<string, object>): string {
  const lines = [
    '// Generated from the OpenAPI document by packages/http/scripts/console-types.ts: do not edit.',
    '// http/test/console-types.test.ts fails when this file no longer matches the server.',
    '',
    "/** The server's named wire shapes (`components.schemas` of `/openapi.json`), by name. */",
    'export interface Schemas {',
  ]
  for (const name of Object.keys(schemas).sort()) {
    lines.push(...member(name, schemas[name] as Json, 1))
  }
  lines.push('}', '')
  return lines.join('\n')
}

const indent = (depth: number) => '  '.repeat(depth)

/** `name: type` (with its description as a doc comment), at `depth`. */
function member(name: string, schema: Json, depth: number, optional = false): string[] {
  const pad = indent(depth)
  const doc = typeof schema.description === 'string' ? [`${pad}/** ${schema.description} */`] : []
  const key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `'${name}'`
  const head = `${pad}${key}${optional ? '?' : ''}: `
  const type = typeOf(schema, depth)
  if (!type.includes('\n') && head.length + type.length > LINE_WIDTH && isUnion(schema)) {
    // too long for one line: one branch a line, as the formatter writes it
    return [
      ...doc,
      `${head.trimEnd()}`,
      ...branches(schema).map((b) => `${indent(depth + 1)}| ${typeOf(b, depth + 1)}`),
    ]
  }
  return [...doc, `${head}${type}`]
}

function isUnion(schema: Json): boolean {
  return Array.isArray(schema.enum) || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)
}

function branches(schema: Json): Json[] {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => ({ const: value }))
  return ((schema.anyOf ?? schema.oneOf) as Json[]) ?? []
}

/** The TypeScript type a schema describes; objects are written over several lines. */
function typeOf(schema: Json, depth: number): string {
  if (typeof schema.$ref === 'string') return `Schemas['${schema.$ref.split('/').pop()}']`
  if ('const' in schema) return literal(schema.const)
  if (isUnion(schema))
    return branches(schema)
      .map((b) => grouped(b, depth))
      .join(' | ')
  if (Array.isArray(schema.allOf)) return (schema.allOf as Json[]).map((b) => grouped(b, depth)).join(' & ')
  switch (schema.type) {
    case 'string':
      return 'string'
    case 'integer':
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      return `${grouped(schema.items as Json, depth)}[]`
    case 'object':
      return objectType(schema, depth)
    default:
      return 'unknown'
  }
}

/** A type that can stand before `[]`, `|` or `&`: unions and intersections in parentheses. */
function grouped(schema: Json, depth: number): string {
  const type = typeOf(schema, depth)
  return isUnion(schema) || Array.isArray(schema.allOf) ? `(${type})` : type
}

function objectType(schema: Json, depth: number): string {
  const properties = (schema.properties ?? {}) as Record<string, Json>
  const required = new Set((schema.required ?? []) as string[])
  const patterns = Object.values((schema.patternProperties ?? {}) as Record<string, Json>)
  const names = Object.keys(properties)
  if (names.length === 0) {
    if (patterns.length > 0) return `Record<string, ${patterns.map((p) => typeOf(p, depth)).join(' | ')}>`
    return schema.maxProperties === 0 ? 'Record<string, never>' : 'Record<string, unknown>'
  }
  const lines = ['{']
  for (const name of names) lines.push(...member(name, properties[name]!, depth + 1, !required.has(name)))
  if (schema.additionalProperties === true) lines.push(`${indent(depth + 1)}[key: string]: unknown`)
  lines.push(`${indent(depth)}}`)
  return lines.join('\n')
}

function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value)
}

/** The file as the current routes make it. */
export function currentConsoleTypes(): string {
  return consoleTypes(buildOpenApiDocument(routes).components.schemas)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(CONSOLE_TYPES_FILE, currentConsoleTypes())
  console.log(`wrote ${CONSOLE_TYPES_FILE}`)
}
