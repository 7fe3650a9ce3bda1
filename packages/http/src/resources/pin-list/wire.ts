import { type FileFilter, type FileRecord, invalid, type KeyvalueCondition } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { Count, DateTime, named } from '../../schema.js'

/** `GET /data/pinList`, Pinata's legacy file listing, as `pinata-web3` and `@pinata/sdk` query it. */

export const PinListQuery = Type.Object({
  status: Type.Optional(
    Type.Enum(['all', 'pinned', 'unpinned'], {
      description: 'Pinfold keeps no record of unpinned files: `unpinned` lists nothing',
    }),
  ),
  cid: Type.Optional(Type.String({ description: 'Exactly this CID' })),
  hashContains: Type.Optional(Type.String({ description: 'CIDs containing this' })),
  pinStart: Type.Optional(Type.String({ format: 'date-time', description: 'Pinned at or after (ISO 8601)' })),
  pinEnd: Type.Optional(Type.String({ format: 'date-time', description: 'Pinned at or before (ISO 8601)' })),
  unpinStart: Type.Optional(Type.String({ format: 'date-time', description: 'Only unpinned files: lists nothing' })),
  unpinEnd: Type.Optional(Type.String({ format: 'date-time', description: 'Only unpinned files: lists nothing' })),
  pinSizeMin: Type.Optional(Type.Integer({ minimum: 0, description: 'Bytes' })),
  pinSizeMax: Type.Optional(Type.Integer({ minimum: 0, description: 'Bytes' })),
  groupId: Type.Optional(Type.String()),
  pageLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default 10' })),
  pageOffset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, description: 'Files to skip' })),
  includeCount: Type.Optional(Type.Boolean({ description: 'Sent by the SDKs; no count is returned' })),
  metadata: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description:
        '`metadata[name]=text` (names containing it, any case); `metadata[keyvalues]={"key":{"value":…,"op":"eq"}}` or `metadata[keyvalues][key]={"value":…,"op":…}` (`op`: eq, ne, gt, gte, lt, lte, between and notBetween with `secondValue`, like, notLike, iLike, notILike)',
    }),
  ),
})

export const PinListRow = named(
  'PinListRow',
  Type.Object({
    id: Type.String(),
    ipfs_pin_hash: Type.String(),
    size: Count,
    user_id: Type.String(),
    date_pinned: DateTime,
    date_unpinned: Type.Null({ description: 'Always null: an unpinned file is deleted' }),
    metadata: Type.Object({
      name: Type.String(),
      keyvalues: Type.Record(Type.String(), Type.String()),
    }),
    regions: Type.Array(Type.Unknown(), { description: 'Empty: one copy, in this deployment’s own store' }),
    mime_type: Type.String(),
    number_of_files: Count,
    group_id: Type.Union([Type.String(), Type.Null()]),
  }),
)

export const PinList = named('PinList', Type.Object({ rows: Type.Array(PinListRow) }))

export function pinListRowToWire(file: FileRecord): Static<typeof PinListRow> {
  return {
    id: file.id,
    ipfs_pin_hash: file.cid,
    size: file.size,
    user_id: file.userId,
    date_pinned: file.createdAt.toISOString(),
    date_unpinned: null,
    metadata: { name: file.name, keyvalues: file.keyvalues },
    regions: [],
    mime_type: file.mimeType,
    number_of_files: file.numberOfFiles,
    group_id: file.groupId,
  }
}

/** Whether the query can only name unpinned files, of which Pinfold keeps none. */
export function onlyUnpinned(query: Static<typeof PinListQuery>): boolean {
  return query.status === 'unpinned' || query.unpinStart !== undefined || query.unpinEnd !== undefined
}

/** The query's filters as core's file filter. */
export function pinListFilter(query: Static<typeof PinListQuery>): FileFilter {
  const { name, keyvalues, ...perKey } = query.metadata ?? {}
  const conditions: KeyvalueCondition[] = []
  if (keyvalues !== undefined) {
    for (const [key, spec] of Object.entries(jsonObject(keyvalues, 'metadata[keyvalues]'))) {
      conditions.push(condition(key, spec))
    }
  }
  // `metadata[keyvalues][key]={…}` arrives as the entry `keyvalues][key`
  for (const [entry, text] of Object.entries(perKey)) {
    const key = /^keyvalues\]\[(.+)$/.exec(entry)?.[1]
    if (key === undefined)
      throw invalid(`metadata[${entry}] is not a filter: use metadata[name] or metadata[keyvalues]`)
    conditions.push(condition(key, jsonObject(text, `metadata[keyvalues][${key}]`)))
  }
  return {
    cid: query.cid,
    cidContains: query.hashContains,
    nameContains: name || undefined,
    groupId: query.groupId,
    createdFrom: date(query.pinStart),
    createdTo: date(query.pinEnd),
    sizeMin: query.pinSizeMin,
    sizeMax: query.pinSizeMax,
    ...(conditions.length > 0 && { keyvalueConditions: conditions }),
  }
}

const date = (text: string | undefined) => (text === undefined ? undefined : new Date(text))

function jsonObject(text: string, field: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw invalid(`${field} must be JSON`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid(`${field} must be a JSON object`)
  }
  return parsed as Record<string, unknown>
}

/** `{"value": …, "op": …, "secondValue"?: …}`; core checks the operator and the values. */
function condition(key: string, spec: unknown): KeyvalueCondition {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw invalid(`metadata[keyvalues].${key} must be {"value": …, "op": …}`)
  }
  const { value, op = 'eq', secondValue } = spec as Record<string, unknown>
  return { key, op, value, secondValue } as KeyvalueCondition
}
