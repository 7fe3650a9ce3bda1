import type { FileRecord, GroupRecord, SortOrder } from '@pinfold/core'
import type { Static } from 'typebox'
import type { FileObject, GroupObject, UploadedFile } from './openapi/schemas.js'

/** Wire shapes keep the spec's snake_case names; every timestamp is ISO 8601 UTC. */
export function fileToWire(file: FileRecord): Static<typeof FileObject> {
  return {
    id: file.id,
    name: file.name,
    cid: file.cid,
    size: file.size,
    number_of_files: file.numberOfFiles,
    mime_type: file.mimeType,
    group_id: file.groupId,
    keyvalues: file.keyvalues,
    created_at: file.createdAt.toISOString(),
    expires_at: file.expiresAt ? Math.floor(file.expiresAt.getTime() / 1000) : null,
    network: file.network,
    vectorized: file.vectorized,
  }
}

export function uploadToWire(file: FileRecord, isDuplicate: boolean): Static<typeof UploadedFile> {
  return { ...fileToWire(file), user_id: file.userId, is_duplicate: isDuplicate }
}

export function groupToWire(group: GroupRecord): Static<typeof GroupObject> {
  return { id: group.id, name: group.name, is_public: group.isPublic, created_at: group.createdAt.toISOString() }
}

/** Unix seconds (an integer, or digits as text) → Date; `null`, `0` and `""` clear an expiry. */
export function unixSecondsToDate(value: number | string | null): Date | null {
  if (value === null || value === '' || Number(value) === 0) return null
  return new Date(Number(value) * 1000)
}

/** `ASC`, `DESC` or the SDK's `DSC`, in either case. */
export function sortOrder(value: string | undefined): SortOrder | undefined {
  if (value === undefined) return undefined
  return value.toUpperCase() === 'ASC' ? 'ASC' : 'DESC'
}

/** `{…metadata, …keyvalues}` of a list query, or `undefined` when neither filters. */
export function keyvalueFilter(...filters: (Record<string, string> | undefined)[]): Record<string, string> | undefined {
  const merged = Object.assign({}, ...filters.filter(Boolean)) as Record<string, string>
  return Object.keys(merged).length > 0 ? merged : undefined
}
