import type {
  CidVersion,
  ContentKind,
  ContentRecord,
  FileRecord,
  GroupRecord,
  KeyValues,
  Network,
} from '@pinfold/interface'
import type { Row } from './queryable.js'

export const CONTENT_COLUMNS = 'cid, blob_key, size, kind, profile'

export const FILE_COLUMNS =
  'id, tenant_id, user_id, network, name, cid, size, number_of_files, mime_type, group_id, keyvalues, created_at, expires_at, vectorized'

export const GROUP_COLUMNS = 'id, tenant_id, network, name, is_public, created_at'

// Number(): pg returns bigint columns as strings, PGlite as numbers. Byte counts stay far below 2^53.

export function toContentRecord(row: Row): ContentRecord {
  return {
    cid: String(row.cid),
    blobKey: String(row.blob_key),
    size: Number(row.size),
    kind: row.kind as ContentKind,
    profile: row.profile === null ? null : (row.profile as CidVersion),
  }
}

export function toFileRecord(row: Row): FileRecord {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    userId: String(row.user_id),
    network: row.network as Network,
    name: String(row.name),
    cid: String(row.cid),
    size: Number(row.size),
    numberOfFiles: Number(row.number_of_files),
    mimeType: String(row.mime_type),
    groupId: row.group_id === null ? null : String(row.group_id),
    keyvalues: toKeyValues(row.keyvalues),
    createdAt: toDate(row.created_at),
    expiresAt: row.expires_at === null ? null : toDate(row.expires_at),
    vectorized: row.vectorized === true,
  }
}

export function toGroupRecord(row: Row): GroupRecord {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    network: row.network as Network,
    name: String(row.name),
    isPublic: row.is_public === true,
    createdAt: toDate(row.created_at),
  }
}

// Both drivers parse timestamptz into Date and jsonb into objects by default, but a pool configured
// with its own type parsers may hand back text, so accept that too.
export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value))
}

function toKeyValues(value: unknown): KeyValues {
  return (typeof value === 'string' ? JSON.parse(value) : value) as KeyValues
}
