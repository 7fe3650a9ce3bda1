import type { CidVersion } from './cid-version.js'

/**
 * The domain's records. Field names are TypeScript camelCase; the HTTP layer maps them onto the
 * spec's snake_case wire names. Dates are `Date` objects; sizes are byte counts.
 */

export const NETWORKS = ['public', 'private'] as const
export type Network = (typeof NETWORKS)[number]

export function isNetwork(value: unknown): value is Network {
  return value === 'public' || value === 'private'
}

/** Free-form metadata: string keys to string values (numbers and booleans are stored as text). */
export type KeyValues = Record<string, string>

/** Who is acting: established by the HTTP layer from a verified token, or by embedding code directly. */
export interface Actor {
  /** The tenant (organisation) that owns every record the actor touches. */
  readonly tenantId: string
  /** The user inside the tenant, reported as `user_id` on uploads. */
  readonly userId: string
}

export interface FileRecord {
  id: string
  tenantId: string
  userId: string
  network: Network
  name: string
  cid: string
  size: number
  numberOfFiles: number
  mimeType: string
  groupId: string | null
  keyvalues: KeyValues
  createdAt: Date
  /** When set, the file is deleted once this moment has passed. */
  expiresAt: Date | null
  vectorized: boolean
}

/** What a new file record holds; the store fills in nothing but `vectorized = false`. */
export type NewFile = Omit<FileRecord, 'vectorized'>

/**
 * Stored bytes, shared by every file record with the same CID (in any tenant, on any network).
 * One content record owns exactly one blob; the blob is deleted when the last file referencing
 * the CID is deleted.
 */
export interface ContentRecord {
  cid: string
  blobKey: string
  size: number
  kind: ContentKind
  /**
   * For `file` contents: the UnixFS import profile that produced `cid` from the blob's bytes, so
   * every block of the DAG can be rebuilt from them. `null` for `car` contents (their layout is
   * whatever the client built).
   */
  profile: CidVersion | null
}

/**
 * How a content's blob holds its DAG:
 * - `file`: the blob is the file's raw bytes; the DAG is rebuilt from them with `profile`.
 * - `car`: the blob is a CARv1 holding every block of the DAG (folder uploads and CAR uploads).
 */
export type ContentKind = 'file' | 'car'

export interface GroupRecord {
  id: string
  tenantId: string
  network: Network
  name: string
  isPublic: boolean
  createdAt: Date
}

export type SortOrder = 'ASC' | 'DESC'

/** Position after which a keyset page starts: the last item of the previous page. */
export interface PageCursor {
  createdAt: Date
  id: string
}

export interface PageRequest {
  /** At least 1; stores may assume core has clamped it. */
  limit: number
  order: SortOrder
  after?: PageCursor | undefined
}

export interface Page<T> {
  items: T[]
  /** True when more items follow the last one returned. */
  hasMore: boolean
}

export interface FileFilter {
  /** Prefix of the file name. */
  namePrefix?: string | undefined
  /** A group id, or `null` for files in no group. `undefined` means any group. */
  groupId?: string | null | undefined
  cid?: string | undefined
  mimeType?: string | undefined
  /** Every pair must be present on the file with exactly this value. */
  keyvalues?: KeyValues | undefined
}

export interface FilePatch {
  name?: string
  /** Merged into the existing keyvalues; a `null` value removes that key. */
  keyvalues?: Record<string, string | null>
  expiresAt?: Date | null
  groupId?: string | null
}

export interface GroupFilter {
  /** Prefix of the group name. */
  namePrefix?: string | undefined
  isPublic?: boolean | undefined
}

export interface GroupPatch {
  name?: string
  isPublic?: boolean
}
