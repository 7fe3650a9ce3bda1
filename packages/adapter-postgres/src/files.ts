import type { FileRecordStore } from '@pinfold/interface'
import {
  type ContentRecord,
  type CreatedFile,
  type CreateFileOptions,
  type DeletedFile,
  type FileFilter,
  type FilePatch,
  type FileRecord,
  type Network,
  type NewFile,
  notFound,
  type Page,
  type PageRequest,
  type RecordedOptions,
  throwIfAborted,
} from '@pinfold/interface'
import { recordNotices } from './deny-rules.js'
import { guarded } from './errors.js'
import { appendEvents, withEvents } from './events.js'
import { fixedStatement } from './fixed-statements.js'
import { keyvalueConditionSql } from './keyvalue-conditions.js'
import { keyset, toPage } from './paging.js'
import type { Queryable, SqlClient } from './queryable.js'
import { CONTENT_COLUMNS, FILE_COLUMNS, toContentRecord, toFileRecord } from './rows.js'
import { containsIgnoringCase, isUuid, likePrefix, Params } from './sql.js'
import { accountFileAdded, accountFileRemoved } from './tenant-accounts.js'

/*
 * How the "exactly one" contracts hold across processes: every transaction that adds or removes a
 * reference to a CID first takes the row lock of that CID's content row and keeps it until commit.
 * Under READ COMMITTED each later statement sees what earlier lock holders committed, so the
 * duplicate check in createFile and the last-reference check in deleteFile never act on stale rows.
 */

async function createFile(
  client: SqlClient,
  file: NewFile,
  content: ContentRecord,
  { signal, requireContent, quota, events, blockedNotices = [] }: CreateFileOptions = {},
): Promise<CreatedFile> {
  if (file.groupId !== null && !isUuid(file.groupId)) throw notFound('group')
  return client.transaction(async (tx) => {
    // Inserts the content row, or (another upload got there first) locks and returns the existing
    // one; the no-op update is what takes the lock. If a concurrent deleteFile holds the row and
    // deletes it, this waits for it and then inserts afresh — or, with `requireContent`, finds
    // no row once the deletion committed, and writes nothing.
    const stored = requireContent
      ? await tx.query(`select ${CONTENT_COLUMNS} from contents where cid = $1 for update`, [content.cid])
      : await tx.query(
          `insert into contents (${CONTENT_COLUMNS}) values ($1, $2, $3, $4, $5)
           on conflict (cid) do update set blob_key = contents.blob_key
           returning ${CONTENT_COLUMNS}`,
          [content.cid, content.blobKey, content.size, content.kind, content.profile],
        )
    if (stored.rows.length === 0) throw notFound('content')
    const duplicate = await tx.query(
      'select exists (select 1 from files where cid = $1 and tenant_id = $2 and network = $3) as duplicate',
      [file.cid, file.tenantId, file.network],
    )
    // files_group_fk rejects a group of another tenant or network; errors.ts maps that to NOT_FOUND.
    const inserted = await tx.query(
      `insert into files (${FILE_COLUMNS})
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::timestamptz, $13::timestamptz, false)
       returning ${FILE_COLUMNS}`,
      [
        file.id,
        file.tenantId,
        file.userId,
        file.network,
        file.name,
        file.cid,
        file.size,
        file.numberOfFiles,
        file.mimeType,
        file.groupId,
        JSON.stringify(file.keyvalues),
        file.createdAt.toISOString(),
        file.expiresAt?.toISOString() ?? null,
      ],
    )
    const record = toFileRecord(inserted.rows[0]!)
    await accountFileAdded(tx, record, quota)
    await appendEvents(tx, events)
    await recordNotices(tx, blockedNotices)
    throwIfAborted(signal)
    return {
      file: record,
      isDuplicate: duplicate.rows[0]?.duplicate === true,
      content: toContentRecord(stored.rows[0]!),
    }
  })
}

/** The API's most frequent read (`GET /v3/files/{network}/{id}`). */
const GET_FILE = fixedStatement(`select ${FILE_COLUMNS} from files where id = $1 and tenant_id = $2 and network = $3`)

async function getFile(db: Queryable, tenantId: string, network: Network, id: string): Promise<FileRecord | undefined> {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(GET_FILE, [id, tenantId, network])
  return rows[0] && toFileRecord(rows[0])
}

async function listFiles(
  db: Queryable,
  tenantId: string,
  network: Network,
  filter: FileFilter,
  page: PageRequest,
): Promise<Page<FileRecord>> {
  const params = new Params()
  const conditions = [`tenant_id = ${params.add(tenantId)}`, `network = ${params.add(network)}`]
  if (filter.namePrefix !== undefined) conditions.push(`name like ${params.add(likePrefix(filter.namePrefix))}`)
  if (filter.groupId === null) conditions.push('group_id is null')
  else if (filter.groupId !== undefined) {
    if (!isUuid(filter.groupId)) return { items: [], hasMore: false }
    conditions.push(`group_id = ${params.add(filter.groupId)}::uuid`)
  }
  if (filter.cid !== undefined) conditions.push(`cid = ${params.add(filter.cid)}`)
  if (filter.mimeType !== undefined) conditions.push(`mime_type = ${params.add(filter.mimeType)}`)
  if (filter.keyvalues !== undefined && Object.keys(filter.keyvalues).length > 0) {
    conditions.push(`keyvalues @> ${params.add(JSON.stringify(filter.keyvalues))}::jsonb`)
  }
  if (filter.nameContains !== undefined) conditions.push(containsIgnoringCase('name', filter.nameContains, params))
  if (filter.cidContains !== undefined) conditions.push(`strpos(cid, ${params.add(filter.cidContains)}) > 0`)
  if (filter.createdFrom) conditions.push(`created_at >= ${params.add(filter.createdFrom.toISOString())}::timestamptz`)
  if (filter.createdTo) conditions.push(`created_at <= ${params.add(filter.createdTo.toISOString())}::timestamptz`)
  if (filter.sizeMin !== undefined) conditions.push(`size >= ${params.add(filter.sizeMin)}`)
  if (filter.sizeMax !== undefined) conditions.push(`size <= ${params.add(filter.sizeMax)}`)
  for (const kv of filter.keyvalueConditions ?? []) conditions.push(keyvalueConditionSql(kv, params))
  const { condition, orderAndLimit } = keyset(page, params)
  if (condition) conditions.push(condition)
  const { rows } = await db.query(
    `select ${FILE_COLUMNS} from files where ${conditions.join(' and ')} ${orderAndLimit}`,
    params.values,
  )
  return toPage(rows.map(toFileRecord), page)
}

/** One UPDATE statement, so a rejected group (files_group_fk) leaves every field unchanged. */
async function updateFile(
  db: Queryable,
  tenantId: string,
  network: Network,
  id: string,
  patch: FilePatch,
): Promise<FileRecord | undefined> {
  if (!isUuid(id)) return undefined
  if (typeof patch.groupId === 'string' && !isUuid(patch.groupId)) {
    // Same answer as for a well-formed id that names no group: undefined for a missing file first.
    if (!(await getFile(db, tenantId, network, id))) return undefined
    throw notFound('group')
  }
  const params = new Params()
  const assignments: string[] = []
  if (patch.name !== undefined) assignments.push(`name = ${params.add(patch.name)}`)
  if (patch.keyvalues !== undefined) {
    const entries = Object.entries(patch.keyvalues)
    const removed = entries.filter(([, value]) => value === null).map(([key]) => key)
    const merged = Object.fromEntries(entries.filter(([, value]) => value !== null))
    assignments.push(
      `keyvalues = (keyvalues - ${params.add(removed)}::text[]) || ${params.add(JSON.stringify(merged))}::jsonb`,
    )
  }
  if (patch.expiresAt !== undefined) {
    assignments.push(`expires_at = ${params.add(patch.expiresAt?.toISOString() ?? null)}::timestamptz`)
  }
  if (patch.groupId !== undefined) assignments.push(`group_id = ${params.add(patch.groupId)}::uuid`)
  if (assignments.length === 0) return getFile(db, tenantId, network, id)
  const { rows } = await db.query(
    `update files set ${assignments.join(', ')}
     where id = ${params.add(id)} and tenant_id = ${params.add(tenantId)} and network = ${params.add(network)}
     returning ${FILE_COLUMNS}`,
    params.values,
  )
  return rows[0] && toFileRecord(rows[0])
}

async function deleteFile(
  client: SqlClient,
  tenantId: string,
  network: Network,
  id: string,
  { signal, events }: RecordedOptions = {},
): Promise<DeletedFile | undefined> {
  if (!isUuid(id)) return undefined
  return client.transaction(async (tx) => {
    // Of concurrent deletes of one file, the row lock lets exactly one see it go.
    const deleted = await tx.query(
      `delete from files where id = $1 and tenant_id = $2 and network = $3 returning ${FILE_COLUMNS}`,
      [id, tenantId, network],
    )
    if (!deleted.rows[0]) return undefined
    const file = toFileRecord(deleted.rows[0])
    // Lock first, then look: the reference check must be a later statement than the lock wait, or
    // it would judge by a snapshot taken before a concurrent createFile committed its file.
    await tx.query('select 1 from contents where cid = $1 for update', [file.cid])
    await accountFileRemoved(tx, file)
    const released = await tx.query(
      `delete from contents where cid = $1 and not exists (select 1 from files where cid = $1)
       returning ${CONTENT_COLUMNS}`,
      [file.cid],
    )
    const releasedContent = released.rows[0] && toContentRecord(released.rows[0])
    if (releasedContent) await tx.query('delete from blocks where blob_key = $1', [releasedContent.blobKey])
    await appendEvents(tx, events)
    throwIfAborted(signal)
    return { file, releasedContent }
  })
}

async function isBlobReferenced(db: Queryable, blobKey: string): Promise<boolean> {
  const { rows } = await db.query('select exists (select 1 from contents where blob_key = $1) as referenced', [blobKey])
  return rows[0]?.referenced === true
}

async function getContent(db: Queryable, cid: string): Promise<ContentRecord | undefined> {
  const { rows } = await db.query(`select ${CONTENT_COLUMNS} from contents where cid = $1`, [cid])
  return rows[0] && toContentRecord(rows[0])
}

/** The record store's files part over `client`, each call guarded (see `guarded`). */
export function postgresFileRecords(client: SqlClient): FileRecordStore {
  return {
    createFile: (file, content, options) =>
      guarded('createFile', options, () => createFile(client, file, content, options)),
    getFile: (tenantId, network, id, options) =>
      guarded('getFile', options, () => getFile(client, tenantId, network, id)),
    listFiles: (tenantId, network, filter, page, options) =>
      guarded('listFiles', options, () => listFiles(client, tenantId, network, filter, page)),
    updateFile: (tenantId, network, id, patch, options) =>
      guarded('updateFile', options, () =>
        withEvents(client, options?.events, (db) => updateFile(db, tenantId, network, id, patch), Boolean),
      ),
    deleteFile: (tenantId, network, id, options) =>
      guarded('deleteFile', options, () => deleteFile(client, tenantId, network, id, options)),
    getContent: (cid, options) => guarded('getContent', options, () => getContent(client, cid)),
    isBlobReferenced: (blobKey, options) =>
      guarded('isBlobReferenced', options, () => isBlobReferenced(client, blobKey)),
  }
}
