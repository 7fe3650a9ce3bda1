import type { UploadSessionAdvance, UploadSessionRecord, UploadSessionRecordStore } from '@pinfold/interface'
import { guarded } from './errors.js'
import type { Queryable, Row, SqlClient } from './queryable.js'

const COLUMNS =
  'id, token_hash, tenant_id, user_id, length, upload_offset, parts, file_name, mime_type, options, constraints, staged, created_at, expires_at'

async function createUploadSession(db: Queryable, s: UploadSessionRecord): Promise<void> {
  await db.query(
    `insert into upload_sessions (${COLUMNS})
     values ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9, $10::jsonb, $11::jsonb, $12::jsonb, $13::timestamptz, $14::timestamptz)`,
    [
      s.id,
      s.tokenHash,
      s.tenantId,
      s.userId,
      s.length,
      s.offset,
      s.parts,
      s.fileName,
      s.mimeType,
      JSON.stringify(s.options),
      s.constraints === null ? null : JSON.stringify(s.constraints),
      s.staged === null ? null : JSON.stringify(s.staged),
      s.createdAt.toISOString(),
      s.expiresAt.toISOString(),
    ],
  )
}

async function getUploadSession(db: Queryable, id: string): Promise<UploadSessionRecord | undefined> {
  const { rows } = await db.query(`select ${COLUMNS} from upload_sessions where id = $1`, [id])
  return rows[0] && toSession(rows[0])
}

/** The compare-and-set is one conditional UPDATE: of concurrent calls at one offset, one matches. */
async function advanceUploadSession(
  db: Queryable,
  id: string,
  expectedOffset: number,
  advance: UploadSessionAdvance,
): Promise<UploadSessionRecord | undefined> {
  const { rows } = await db.query(
    `update upload_sessions
     set upload_offset = $3, parts = array_append(parts, $4::text), expires_at = $5::timestamptz,
         staged = coalesce($6::jsonb, staged),
         completion_owner = case when $3 = length then $7 else completion_owner end,
         completion_expires_at = case when $3 = length then $8::timestamptz else completion_expires_at end
     where id = $1 and upload_offset = $2
     returning ${COLUMNS}`,
    [
      id,
      expectedOffset,
      advance.offset,
      advance.part,
      advance.expiresAt.toISOString(),
      advance.staged ? JSON.stringify(advance.staged) : null,
      advance.completion.owner,
      advance.completion.expiresAt.toISOString(),
    ],
  )
  return rows[0] && toSession(rows[0])
}

/**
 * One conditional UPDATE: concurrent claimers queue on the row lock and re-check the lease, so one
 * matches. `now` is core's clock, as every lease here is (the database's own clock may differ).
 */
async function claimUploadCompletion(
  db: Queryable,
  id: string,
  owner: string,
  now: Date,
  leaseMs: number,
): Promise<'claimed' | 'already'> {
  const { rows } = await db.query(
    `update upload_sessions
     set completion_owner = $2,
         completion_expires_at = $3::timestamptz + make_interval(secs => $4::double precision / 1000)
     where id = $1 and (completion_owner is null or completion_expires_at <= $3::timestamptz)
     returning id`,
    [id, owner, now.toISOString(), leaseMs],
  )
  return rows.length === 1 ? 'claimed' : 'already'
}

async function renewUploadCompletion(db: Queryable, id: string, owner: string, until: Date): Promise<boolean> {
  const { rows } = await db.query(
    'update upload_sessions set completion_expires_at = $3::timestamptz where id = $1 and completion_owner = $2 returning id',
    [id, owner, until.toISOString()],
  )
  return rows.length === 1
}

async function releaseUploadCompletion(db: Queryable, id: string, owner: string): Promise<boolean> {
  const { rows } = await db.query(
    `update upload_sessions set completion_owner = null, completion_expires_at = null
     where id = $1 and completion_owner = $2 returning id`,
    [id, owner],
  )
  return rows.length === 1
}

async function deleteUploadSession(db: Queryable, id: string): Promise<UploadSessionRecord | undefined> {
  const { rows } = await db.query(`delete from upload_sessions where id = $1 returning ${COLUMNS}`, [id])
  return rows[0] && toSession(rows[0])
}

async function listExpiredUploadSessions(db: Queryable, now: Date, limit: number): Promise<UploadSessionRecord[]> {
  const { rows } = await db.query(
    `select ${COLUMNS} from upload_sessions where expires_at <= $1::timestamptz order by expires_at, id limit $2`,
    [now.toISOString(), limit],
  )
  return rows.map(toSession)
}

// Number(): pg returns bigint columns as strings, PGlite as numbers. Byte counts stay far below 2^53.
function toSession(row: Row): UploadSessionRecord {
  return {
    id: String(row.id),
    tokenHash: String(row.token_hash),
    tenantId: String(row.tenant_id),
    userId: String(row.user_id),
    length: Number(row.length),
    offset: Number(row.upload_offset),
    parts: (row.parts as unknown[]).map(String),
    fileName: String(row.file_name),
    mimeType: row.mime_type === null ? null : String(row.mime_type),
    options: json(row.options) as UploadSessionRecord['options'],
    constraints: row.constraints === null ? null : (json(row.constraints) as UploadSessionRecord['constraints']),
    staged: row.staged === null ? null : (json(row.staged) as UploadSessionRecord['staged']),
    createdAt: new Date(row.created_at as string | Date),
    expiresAt: new Date(row.expires_at as string | Date),
  }
}

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value)

/** The record store's uploadSessions part over `client`, each call guarded (see `guarded`). */
export function postgresUploadSessionRecords(client: SqlClient): UploadSessionRecordStore {
  return {
    createUploadSession: (session, options) =>
      guarded('createUploadSession', options, () => createUploadSession(client, session)),
    getUploadSession: (id, options) => guarded('getUploadSession', options, () => getUploadSession(client, id)),
    advanceUploadSession: (id, expectedOffset, advance, options) =>
      guarded('advanceUploadSession', options, () => advanceUploadSession(client, id, expectedOffset, advance)),
    claimUploadCompletion: (id, owner, now, leaseMs, options) =>
      guarded('claimUploadCompletion', options, () => claimUploadCompletion(client, id, owner, now, leaseMs)),
    renewUploadCompletion: (id, owner, until, options) =>
      guarded('renewUploadCompletion', options, () => renewUploadCompletion(client, id, owner, until)),
    releaseUploadCompletion: (id, owner, options) =>
      guarded('releaseUploadCompletion', options, () => releaseUploadCompletion(client, id, owner)),
    deleteUploadSession: (id, options) =>
      guarded('deleteUploadSession', options, () => deleteUploadSession(client, id)),
    listExpiredUploadSessions: (now, limit, options) =>
      guarded('listExpiredUploadSessions', options, () => listExpiredUploadSessions(client, now, limit)),
  }
}
