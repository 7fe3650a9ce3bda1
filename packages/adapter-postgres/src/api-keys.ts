import type { ApiKeyRecordStore } from '@pinfold/interface'
import { type ApiKeyFilter, type ApiKeyRecord, type ApiKeyUse, type NewEvent, PinfoldError } from '@pinfold/interface'
import { guarded } from './errors.js'
import { appendEvents } from './events.js'
import { fixedStatement } from './fixed-statements.js'
import type { Queryable, Row, SqlClient } from './queryable.js'
import { toDate } from './rows.js'
import { Params } from './sql.js'

const COLUMNS =
  'id, tenant_id, user_id, name, key, secret_hash, scopes, permissions, max_uses, uses, revoked, parent_id, created_at, updated_at'

function toApiKey(row: Row): ApiKeyRecord {
  const permissions = typeof row.permissions === 'string' ? JSON.parse(row.permissions) : row.permissions
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    userId: String(row.user_id),
    name: String(row.name),
    key: String(row.key),
    secretHash: String(row.secret_hash),
    scopes: (row.scopes as unknown[]).map(String),
    permissions: permissions as Record<string, unknown>,
    maxUses: row.max_uses === null ? null : Number(row.max_uses),
    uses: Number(row.uses),
    revoked: row.revoked === true,
    parentId: row.parent_id === null ? null : String(row.parent_id),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  }
}

/**
 * A key with a parent is created in one transaction with the update that spends the parent's
 * uses: that update takes the parent's row lock, so a revocation walking the tree (which updates
 * the parent's row) either waits for this key to be committed and then sees it, or ran first and
 * this update finds the parent revoked.
 */
async function createApiKey(
  client: SqlClient,
  key: ApiKeyRecord,
  events: readonly NewEvent[] | undefined,
): Promise<ApiKeyRecord> {
  const { parentId } = key
  if (parentId === null && !events?.length) return insertApiKey(client, key)
  return client.transaction(async (tx) => {
    if (parentId !== null) await spendParentUses(tx, key, parentId)
    const created = await insertApiKey(tx, key)
    await appendEvents(tx, events)
    return created
  })
}

async function spendParentUses(tx: Queryable, key: ApiKeyRecord, parentId: string): Promise<void> {
  const { rows } = await tx.query(
    `update api_keys set uses = case when max_uses is null then uses else uses + $3 end
     where id = $1 and tenant_id = $2 and not revoked
       and (max_uses is null or ($3::integer is not null and uses + $3 <= max_uses))
     returning id`,
    [parentId, key.tenantId, key.maxUses],
  )
  if (rows.length > 0) return
  const parent = await getApiKey(tx, key.tenantId, parentId)
  if (!parent || parent.revoked) throw new PinfoldError('FORBIDDEN', 'the key creating this key has been revoked')
  const left = parent.maxUses! - parent.uses
  throw new PinfoldError(
    'FORBIDDEN',
    left === 0
      ? 'the key creating this key has no uses left to give'
      : `the key creating this key has ${left} uses left: the new key needs a maxUses of at most ${left}`,
  )
}

async function insertApiKey(db: Queryable, key: ApiKeyRecord): Promise<ApiKeyRecord> {
  const { rows } = await db.query(
    `insert into api_keys (${COLUMNS})
     values ($1, $2, $3, $4, $5, $6, $7::text[], $8::jsonb, $9, $10, $11, $12, $13::timestamptz, $14::timestamptz)
     returning ${COLUMNS}`,
    [
      key.id,
      key.tenantId,
      key.userId,
      key.name,
      key.key,
      key.secretHash,
      key.scopes,
      JSON.stringify(key.permissions),
      key.maxUses,
      key.uses,
      key.revoked,
      key.parentId,
      key.createdAt.toISOString(),
      key.updatedAt.toISOString(),
    ],
  )
  return toApiKey(rows[0]!)
}

async function getApiKey(db: Queryable, tenantId: string, id: string): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query(`select ${COLUMNS} from api_keys where id = $1 and tenant_id = $2`, [id, tenantId])
  return rows[0] && toApiKey(rows[0])
}

/** Read when an API key authenticates and its cached verdict has run out. */
const FIND_API_KEY = fixedStatement(`select ${COLUMNS} from api_keys where key = $1`)

async function findApiKey(db: Queryable, key: string): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query(FIND_API_KEY, [key])
  return rows[0] && toApiKey(rows[0])
}

async function listApiKeys(
  db: Queryable,
  tenantId: string,
  filter: ApiKeyFilter,
  page: { offset: number; limit: number },
): Promise<{ items: ApiKeyRecord[]; total: number }> {
  const params = new Params()
  const where = [`tenant_id = ${params.add(tenantId)}`]
  // strpos on lower-cased text: a substring match with no LIKE wildcards to escape
  if (filter.name !== undefined) where.push(`strpos(lower(name), lower(${params.add(filter.name)})) > 0`)
  if (filter.revoked !== undefined) where.push(`revoked = ${params.add(filter.revoked)}`)
  if (filter.limitedUse !== undefined) where.push(filter.limitedUse ? 'max_uses is not null' : 'max_uses is null')
  if (filter.exhausted !== undefined) {
    where.push(filter.exhausted ? 'uses >= max_uses' : '(max_uses is null or uses < max_uses)')
  }
  const { rows } = await db.query(
    `select ${COLUMNS}, count(*) over () as total from api_keys where ${where.join(' and ')}
     order by created_at desc, id desc offset ${params.add(page.offset)} limit ${params.add(page.limit)}`,
    params.values,
  )
  if (rows.length > 0 || page.offset === 0) return { items: rows.map(toApiKey), total: Number(rows[0]?.total ?? 0) }
  // a page past the end has no row to carry the total
  const counted = await db.query(`select count(*) as total from api_keys where ${where.join(' and ')}`, [
    ...params.values.slice(0, -2),
  ])
  return { items: [], total: Number(counted.rows[0]?.total ?? 0) }
}

/**
 * Revokes the key, then the keys it created level by level, each level one statement in the same
 * transaction. Under READ COMMITTED each statement sees what was committed when it started, and
 * updating a row waits for a creation holding that row's lock (`createApiKey`): by the time the
 * statement revoking a level has locked every key of it, a child created under any of them is
 * committed, so the next statement sees it; a creation after that finds its parent revoked.
 */
async function revokeApiKey(
  client: SqlClient,
  tenantId: string,
  key: string,
  at: Date,
  events: readonly NewEvent[] | undefined,
): Promise<ApiKeyRecord | undefined> {
  return client.transaction(async (tx) => {
    // revoking a revoked key changes nothing, so records nothing; the lock keeps that true till commit
    const before = await tx.query('select revoked from api_keys where key = $1 and tenant_id = $2 for update', [
      key,
      tenantId,
    ])
    if (before.rows[0]?.revoked === false) await appendEvents(tx, events)
    const { rows } = await tx.query(
      `update api_keys set revoked = true, updated_at = case when revoked then updated_at else $3::timestamptz end
       where key = $1 and tenant_id = $2 returning ${COLUMNS}`,
      [key, tenantId, at.toISOString()],
    )
    if (!rows[0]) return undefined
    let level = [String(rows[0].id)]
    while (level.length > 0) {
      const children = await tx.query(
        `update api_keys set revoked = true, updated_at = case when revoked then updated_at else $3::timestamptz end
         where parent_id = any($1::text[]) and tenant_id = $2 returning id`,
        [level, tenantId, at.toISOString()],
      )
      level = children.rows.map((row) => String(row.id))
    }
    return toApiKey(rows[0])
  })
}

/**
 * Revokes the tenant's keys, one statement after another in one transaction until one revokes
 * none: a child whose creation held its parent's row lock is committed once the statement that
 * waited for that lock finishes, and the next statement (a new snapshot under READ COMMITTED)
 * sees it.
 */
async function revokeTenantApiKeys(
  client: SqlClient,
  tenantId: string,
  at: Date,
  events: readonly NewEvent[] | undefined,
): Promise<number> {
  return client.transaction(async (tx) => {
    let revoked = 0
    for (;;) {
      const { rows } = await tx.query(
        'update api_keys set revoked = true, updated_at = $2::timestamptz where tenant_id = $1 and not revoked returning id',
        [tenantId, at.toISOString()],
      )
      if (rows.length === 0) {
        if (revoked > 0) await appendEvents(tx, events)
        return revoked
      }
      revoked += rows.length
    }
  })
}

/**
 * Counts a use in one conditional update: the row lock makes concurrent uses queue, and each
 * re-checks `uses < max_uses` on the row as the one before it left it. When no row was updated,
 * a plain read says why.
 */
async function useApiKey(db: Queryable, tenantId: string, id: string): Promise<ApiKeyUse> {
  const counted = await db.query(
    `update api_keys set uses = uses + 1
     where id = $1 and tenant_id = $2 and not revoked and max_uses is not null and uses < max_uses
     returning ${COLUMNS}`,
    [id, tenantId],
  )
  if (counted.rows[0]) return { outcome: 'used', key: toApiKey(counted.rows[0]) }
  const key = await getApiKey(db, tenantId, id)
  if (!key) return { outcome: 'missing' }
  if (key.revoked) return { outcome: 'revoked', key }
  if (key.maxUses !== null && key.uses >= key.maxUses) return { outcome: 'exhausted', key }
  // an unlimited key is not counted: using it writes nothing
  return { outcome: 'used', key }
}

/** The record store's apiKeys part over `client`, each call guarded (see `guarded`). */
export function postgresApiKeyRecords(client: SqlClient): ApiKeyRecordStore {
  return {
    createApiKey: (key, options) => guarded('createApiKey', options, () => createApiKey(client, key, options?.events)),
    getApiKey: (tenantId, id, options) => guarded('getApiKey', options, () => getApiKey(client, tenantId, id)),
    findApiKey: (key, options) => guarded('findApiKey', options, () => findApiKey(client, key)),
    listApiKeys: (tenantId, filter, page, options) =>
      guarded('listApiKeys', options, () => listApiKeys(client, tenantId, filter, page)),
    revokeApiKey: (tenantId, key, at, options) =>
      guarded('revokeApiKey', options, () => revokeApiKey(client, tenantId, key, at, options?.events)),
    revokeTenantApiKeys: (tenantId, at, options) =>
      guarded('revokeTenantApiKeys', options, () => revokeTenantApiKeys(client, tenantId, at, options?.events)),
    useApiKey: (tenantId, id, options) => guarded('useApiKey', options, () => useApiKey(client, tenantId, id)),
  }
}
