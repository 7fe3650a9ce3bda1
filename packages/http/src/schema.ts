import { CID_VERSIONS, MAX_PAGE_LIMIT, NETWORKS, type SortOrder } from '@pinfold/core'
import Type, { type Static, type TSchema, type TUnsafe } from 'typebox'

/**
 * Wire schemas shared by several resources (a resource's own are in `resources/<resource>/wire.ts`).
 * They are TypeBox types, which are plain JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1):
 * the same object checks a request and is published in `/openapi.json`.
 */

const registry = new Map<string, TSchema>()

/**
 * Names a schema: `/openapi.json` publishes it once under `components.schemas.<name>` and refers to
 * it (`$ref`) wherever a route's schema holds it.
 */
export function named<T extends TSchema>(name: string, schema: T): T {
  const known = registry.get(name)
  if (known && known !== schema) throw new Error(`two schemas are named ${name}`)
  registry.set(name, schema)
  return schema
}

/** Every named schema, by name. */
export function namedSchemas(): ReadonlyMap<string, TSchema> {
  return registry
}

/**
 * A text field that holds JSON (a multipart field such as `keyvalues`): documented as a string
 * whose `contentSchema` is `schema`; the parsed value is what is checked and handed on.
 */
export function jsonText<T extends TSchema>(schema: T, options: { description?: string } = {}): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>({
    type: 'string',
    contentMediaType: 'application/json',
    contentSchema: schema,
    ...options,
  })
}

export const NetworkSchema = named('Network', Type.Enum([...NETWORKS]))

export const CidVersionSchema = Type.Enum([...CID_VERSIONS])

/** Metadata as given: string values; numbers and booleans are kept as their text. */
export const Keyvalues = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
  description: 'Free-form metadata',
})

/** A metadata change: a `null` value removes its key. */
export const KeyvaluePatch = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
  { description: 'Keys to set; a null value removes its key' },
)

/** `?limit=&pageToken=` of every list. */
export const pageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, description: 'Page size' })),
  pageToken: Type.Optional(Type.String({ description: 'The `next_page_token` of the previous page' })),
}

/** Timestamps are ISO 8601 UTC, except the Unix seconds of a file's `expires_at`. */
export const DateTime = Type.String({ format: 'date-time' })

export const Count = Type.Integer({ minimum: 0 })

export const Hex = Type.String({ pattern: '^0x[0-9a-fA-F]+$' })

/** A signed URL (`{data: "https://…"}`). */
export const SignedUrl = Type.String({ format: 'uri' })

/** The spellings of a list's order: `ASC`, `DESC` or the SDK's `DSC`, in either case. */
export const ORDERS = ['ASC', 'DESC', 'DSC', 'asc', 'desc', 'dsc'] as const

/** One of {@link ORDERS} as core's order. */
export function sortOrder(value: string | undefined): SortOrder | undefined {
  if (value === undefined) return undefined
  return value.toUpperCase() === 'ASC' ? 'ASC' : 'DESC'
}

/** Unix seconds (an integer, or digits as text) → Date; `null`, `0` and `""` clear an expiry. */
export function unixSecondsToDate(value: number | string | null): Date | null {
  if (value === null || value === '' || Number(value) === 0) return null
  return new Date(Number(value) * 1000)
}
