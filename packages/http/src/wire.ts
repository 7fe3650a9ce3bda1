import {
  type FileRecord,
  type GroupRecord,
  invalid,
  isCidVersion,
  isNetwork,
  type Network,
  type SortOrder,
  type UploadOptions,
} from '@pinfold/core'

/** Wire shapes keep the spec's snake_case names; every timestamp is ISO 8601 UTC. */
export function fileToWire(file: FileRecord) {
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

export function uploadToWire(file: FileRecord, isDuplicate: boolean) {
  return { ...fileToWire(file), user_id: file.userId, is_duplicate: isDuplicate }
}

export function groupToWire(group: GroupRecord) {
  return { id: group.id, name: group.name, is_public: group.isPublic, created_at: group.createdAt.toISOString() }
}

export function parseNetwork(value: string | undefined): Network {
  if (!isNetwork(value)) throw invalid('network must be "public" or "private"')
  return value
}

export function parseBoolean(value: unknown, field: string): boolean {
  if (value === true || value === 'true') return true
  if (value === false || value === 'false') return false
  throw invalid(`${field} must be true or false`)
}

/** Unix seconds (number or numeric string) → Date; `null`/`0`/`""` clear an expiry. */
export function parseUnixSeconds(value: unknown, field: string): Date | null {
  if (value === null || value === 0 || value === '' || value === '0') return null
  const seconds = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
  if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds < 0) {
    throw invalid(`${field} must be a unix timestamp in seconds`)
  }
  return new Date(seconds * 1000)
}

export function parseJsonField(value: string, field: string): unknown {
  try {
    return JSON.parse(value)
  } catch {
    throw invalid(`${field} must be a JSON-encoded string`)
  }
}

/** One multipart text field of `POST /v3/files`, as upload options; unknown fields are ignored. */
export function uploadFieldToOptions(name: string, value: string): Partial<UploadOptions> | undefined {
  switch (name) {
    case 'network':
      return { network: parseNetwork(value) }
    case 'name':
      return value === '' ? {} : { name: value }
    case 'group_id':
      return { groupId: value === '' ? null : value }
    case 'keyvalues':
      return { keyvalues: parseJsonField(value, 'keyvalues') as UploadOptions['keyvalues'] }
    case 'cid_version':
      if (!isCidVersion(value)) throw invalid('cid_version must be "v0", "v1" or "unixfs-v1-2025"')
      return { cidVersion: value }
    case 'expires_at':
      return { expiresAt: parseUnixSeconds(value, 'expires_at') }
    case 'car':
      return { car: parseBoolean(value, 'car') }
    default:
      // `streamable` and fields of newer clients are accepted and ignored
      return undefined
  }
}

export function parseLimit(value: string | null): number | undefined {
  if (value === null || value === '') return undefined
  if (!/^\d+$/.test(value)) throw invalid('limit must be a positive integer')
  return Number(value)
}

export function parseOrder(value: string | null): SortOrder | undefined {
  if (value === null || value === '') return undefined
  const upper = value.toUpperCase()
  if (upper === 'ASC') return 'ASC'
  if (upper === 'DESC' || upper === 'DSC') return 'DESC'
  throw invalid('order must be ASC or DESC')
}

/** `keyvalues[k]=v` (SDK, docs) and `metadata[k]=v` (OpenAPI) both filter by metadata. */
export function parseKeyvalueFilter(params: URLSearchParams): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  for (const [key, value] of params) {
    const match = /^(?:keyvalues|metadata)\[(.+)\]$/.exec(key)
    if (match) out[match[1]!] = value
  }
  return Object.keys(out).length > 0 ? out : undefined
}
