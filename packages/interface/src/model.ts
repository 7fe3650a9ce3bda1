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
  /** The API key the request was made with, when it was one: the audit log names it as the actor. */
  readonly keyId?: string | undefined
  /** The request being served (`X-Request-Id`): the audit log's entries carry it. */
  readonly requestId?: string | undefined
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
  /**
   * Items to skip (after `after`, when both are given) before the page starts: the legacy API's
   * `pageOffset`. Honoured by `listFiles` and `listGroups`; core bounds it.
   */
  offset?: number | undefined
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
  /** Names containing this, ignoring the case of letters (the legacy API's `metadata[name]`). */
  nameContains?: string | undefined
  /** CIDs containing this as written (the legacy API's `hashContains`). */
  cidContains?: string | undefined
  /** Created at or after this moment. */
  createdFrom?: Date | undefined
  /** Created at or before this moment. */
  createdTo?: Date | undefined
  /** At least this many bytes. */
  sizeMin?: number | undefined
  /** At most this many bytes. */
  sizeMax?: number | undefined
  /** Conditions on keyvalues, every one of which must hold (the legacy API's `metadata[keyvalues]`). */
  keyvalueConditions?: readonly KeyvalueCondition[] | undefined
}

/** The operators of Pinata's legacy keyvalue queries (Sequelize's names), less its regular expressions. */
export const KEYVALUE_OPERATORS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'notBetween',
  'like',
  'notLike',
  'iLike',
  'notILike',
] as const
export type KeyvalueOperator = (typeof KEYVALUE_OPERATORS)[number]

/**
 * One condition on a file's keyvalue `key`. A file without the key never matches, whatever the
 * operator (`ne` and the `not…` ones included). A number `value` compares numerically, and only
 * values that are decimal numbers (`-12`, `3.5`, `1e3`) match; a string compares as text, by
 * Unicode code point. `like` patterns are SQL's: `%` any run, `_` one character, `\` escapes;
 * `iLike` ignores the case of letters. `between` and `notBetween` take `secondValue` (inclusive
 * bounds), of the same kind as `value`.
 */
export interface KeyvalueCondition {
  key: string
  op: KeyvalueOperator
  value: string | number
  secondValue?: string | number | undefined
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
  /** Names containing this, ignoring the case of letters (the legacy API's `nameContains`). */
  nameContains?: string | undefined
  isPublic?: boolean | undefined
}

export interface GroupPatch {
  name?: string
  isPublic?: boolean
}
