import type { BlockRecordStore } from '@pinfold/interface'
import {
  BLOCK_SOURCES,
  type BlockLocation,
  type BlockSource,
  type ContentRecord,
  type FileRecord,
  type LocatedBlock,
  type Network,
  type RootHolderPageOptions,
} from '@pinfold/interface'
import { guarded } from './errors.js'
import type { Queryable, Row, SqlClient } from './queryable.js'
import { CONTENT_COLUMNS, FILE_COLUMNS, toContentRecord, toFileRecord } from './rows.js'

/*
 * The block index. Multihashes travel as hex text and are decoded in SQL, so the same statements
 * work on node-postgres and PGlite whatever each does with binary parameters. A row counts only
 * while a content row owns its blob key: the lookups join through contents.blob_key.
 */

const LOCATION_COLUMNS = 'b.multihash, b.codec, b.source, b.byte_offset, b.byte_length, b.is_root'
/** Rows per INSERT: large CARs have many blocks, and one statement's parameters must stay small. */
const INSERT_BATCH = 2000

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

async function putBlockLocations(
  client: SqlClient,
  blobKey: string,
  locations: readonly BlockLocation[],
): Promise<void> {
  await client.transaction(async (tx) => {
    for (let start = 0; start < locations.length; start += INSERT_BATCH) {
      const batch = locations.slice(start, start + INSERT_BATCH)
      await tx.query(
        `insert into blocks (blob_key, multihash, codec, source, byte_offset, byte_length, is_root)
         select $1, decode(h, 'hex'), c, s, o, l, r
         from unnest($2::text[], $3::int[], $4::text[], $5::bigint[], $6::int[], $7::boolean[]) as t (h, c, s, o, l, r)
         on conflict (blob_key, multihash) do nothing`,
        [
          blobKey,
          batch.map((location) => hex(location.multihash)),
          batch.map((location) => location.codec),
          batch.map((location) => location.source),
          batch.map((location) => location.offset),
          batch.map((location) => location.length),
          batch.map((location) => location.isRoot),
        ],
      )
    }
  })
}

async function findPublicBlock(
  db: Queryable,
  multihash: Uint8Array,
  at: Date,
  tenantId: string | undefined,
  excludeTenants: readonly string[],
): Promise<LocatedBlock | undefined> {
  const params: unknown[] = [hex(multihash), at.toISOString()]
  if (tenantId !== undefined) params.push(tenantId)
  if (excludeTenants.length > 0) params.push(excludeTenants)
  const excluded = excludeTenants.length > 0 ? `and f.tenant_id <> all($${params.length}::text[])` : ''
  // the files that make the content servable, once: whether there is one, and until when (for caches)
  const { rows } = await db.query(
    `select ${CONTENT_COLUMNS.split(', ')
      .map((column) => `c.${column}`)
      .join(', ')}, ${LOCATION_COLUMNS}, h.forever, h.latest
     from blocks b join contents c on c.blob_key = b.blob_key
     cross join lateral (
       select bool_or(f.expires_at is null) as forever, max(f.expires_at) as latest
       from files f where f.cid = c.cid and f.network = 'public'
         and (f.expires_at is null or f.expires_at > $2::timestamptz)
         ${tenantId === undefined ? '' : 'and f.tenant_id = $3'} ${excluded}
     ) h
     where b.multihash = decode($1, 'hex') and h.forever is not null
     order by b.is_root desc
     limit 1`,
    params,
  )
  const row = rows[0]
  if (!row) return undefined
  const until = row.forever === true ? null : new Date(row.latest as string | Date)
  return { content: toContentRecord(row), location: toLocation(row), until }
}

async function findHeldFile(
  db: Queryable,
  tenantId: string,
  network: Network,
  multihash: Uint8Array,
  at: Date,
): Promise<FileRecord | undefined> {
  const { rows } = await db.query(
    `select ${FILE_COLUMNS.split(', ')
      .map((column) => `f.${column}`)
      .join(', ')}
     from blocks b
     join contents c on c.blob_key = b.blob_key
     join files f on f.cid = c.cid
     where b.multihash = decode($1, 'hex') and b.is_root and f.tenant_id = $2 and f.network = $3
       and (f.expires_at is null or f.expires_at > $4::timestamptz)
     order by f.created_at, f.id
     limit 1`,
    [hex(multihash), tenantId, network, at.toISOString()],
  )
  return rows[0] && toFileRecord(rows[0])
}

async function listRootHolders(
  db: Queryable,
  multihash: Uint8Array,
  limit: number,
  after: RootHolderPageOptions['after'],
): Promise<FileRecord[]> {
  const params = [hex(multihash), limit]
  const start = after ? `and (f.tenant_id, f.created_at, f.id) > ($3, $4::timestamptz, $5::uuid)` : ''
  if (after) params.push(after.tenantId, after.createdAt.toISOString(), after.id)
  const { rows } = await db.query(
    `select ${FILE_COLUMNS.split(', ')
      .map((column) => `f.${column}`)
      .join(', ')}
     from blocks b
     join contents c on c.blob_key = b.blob_key
     join files f on f.cid = c.cid
     where b.multihash = decode($1, 'hex') and b.is_root ${start}
     order by f.tenant_id, f.created_at, f.id
     limit $2`,
    params,
  )
  return rows.map(toFileRecord)
}

async function getBlockLocation(
  db: Queryable,
  blobKey: string,
  multihash: Uint8Array,
): Promise<BlockLocation | undefined> {
  const { rows } = await db.query(
    `select ${LOCATION_COLUMNS} from blocks b where b.blob_key = $1 and b.multihash = decode($2, 'hex')`,
    [blobKey, hex(multihash)],
  )
  return rows[0] && toLocation(rows[0])
}

async function listUnindexedContents(
  db: Queryable,
  after: string | undefined,
  limit: number,
): Promise<ContentRecord[]> {
  const { rows } = await db.query(
    `select ${CONTENT_COLUMNS} from contents c
     where ($1::text is null or c.cid > $1)
       and not exists (select 1 from blocks b where b.blob_key = c.blob_key)
     order by c.cid limit $2`,
    [after ?? null, limit],
  )
  return rows.map(toContentRecord)
}

async function listPublicRoots(
  db: Queryable,
  after: string | undefined,
  limit: number,
  at: Date,
  excludeTenants: readonly string[],
): Promise<string[]> {
  const { rows } = await db.query(
    `select c.cid from contents c
     where ($1::text is null or c.cid > $1)
       and exists (select 1 from files f where f.cid = c.cid and f.network = 'public'
                   and (f.expires_at is null or f.expires_at > $2::timestamptz)
                   and f.tenant_id <> all($4::text[]))
     order by c.cid limit $3`,
    [after ?? null, at.toISOString(), limit, excludeTenants],
  )
  return rows.map((row) => String(row.cid))
}

async function listHeldRoots(db: Queryable, after: string | undefined, limit: number): Promise<string[]> {
  const { rows } = await db.query(
    `select c.cid from contents c
     where ($1::text is null or c.cid > $1) and exists (select 1 from files f where f.cid = c.cid)
     order by c.cid limit $2`,
    [after ?? null, limit],
  )
  return rows.map((row) => String(row.cid))
}

async function deleteBlockLocations(db: Queryable, blobKey: string): Promise<void> {
  await db.query('delete from blocks where blob_key = $1', [blobKey])
}

function toLocation(row: Row): BlockLocation {
  const source = String(row.source) as BlockSource
  if (!BLOCK_SOURCES.includes(source)) throw new Error(`unknown block source ${source}`)
  return {
    multihash: new Uint8Array(row.multihash as Uint8Array),
    codec: Number(row.codec),
    source,
    offset: Number(row.byte_offset),
    length: Number(row.byte_length),
    isRoot: row.is_root === true,
  }
}

/** The record store's blocks part over `client`, each call guarded (see `guarded`). */
export function postgresBlockRecords(client: SqlClient): BlockRecordStore {
  return {
    putBlockLocations: (blobKey, locations, options) =>
      guarded('putBlockLocations', options, () => putBlockLocations(client, blobKey, locations)),
    findPublicBlock: (multihash, { at, tenantId, excludeTenants = [] }, options) =>
      guarded('findPublicBlock', options, () => findPublicBlock(client, multihash, at, tenantId, excludeTenants)),
    findHeldFile: (tenantId, network, multihash, at, options) =>
      guarded('findHeldFile', options, () => findHeldFile(client, tenantId, network, multihash, at)),
    listRootHolders: (multihash, limit, options) =>
      guarded('listRootHolders', options, () => listRootHolders(client, multihash, limit, options?.after)),
    getBlockLocation: (blobKey, multihash, options) =>
      guarded('getBlockLocation', options, () => getBlockLocation(client, blobKey, multihash)),
    listUnindexedContents: (after, limit, options) =>
      guarded('listUnindexedContents', options, () => listUnindexedContents(client, after, limit)),
    listPublicRoots: (after, limit, at, options) =>
      guarded('listPublicRoots', options, () =>
        listPublicRoots(client, after, limit, at, options?.excludeTenants ?? []),
      ),
    listHeldRoots: (after, limit, options) =>
      guarded('listHeldRoots', options, () => listHeldRoots(client, after, limit)),
    deleteBlockLocations: (blobKey, options) =>
      guarded('deleteBlockLocations', options, () => deleteBlockLocations(client, blobKey)),
  }
}
