import type {
  KeyValues,
  Page,
  PageRequest,
  PinFailure,
  PinOutcome,
  PinRequestFilter,
  PinRequestRecord,
  PinRequestState,
} from '@pinfold/interface'
import { keyset, toPage } from './paging.js'
import type { Queryable, Row } from './queryable.js'
import { toDate } from './rows.js'
import { isUuid, Params } from './sql.js'

const COLUMNS =
  'id, tenant_id, user_id, cid, name, group_id, keyvalues, host_nodes, state, failure, reason, created_at, attempts, lease_owner, lease_expires_at'

export async function createPinRequest(db: Queryable, r: PinRequestRecord): Promise<void> {
  await db.query(
    `insert into pin_requests (${COLUMNS})
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::text[], $9, $10, $11, $12::timestamptz, $13, $14, $15::timestamptz)`,
    [
      r.id,
      r.tenantId,
      r.userId,
      r.cid,
      r.name,
      r.groupId,
      JSON.stringify(r.keyvalues),
      r.hostNodes,
      r.state,
      r.failure,
      r.reason,
      r.createdAt.toISOString(),
      r.attempts,
      r.leaseOwner,
      r.leaseExpiresAt?.toISOString() ?? null,
    ],
  )
}

export async function getPinRequest(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<PinRequestRecord | undefined> {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(`select ${COLUMNS} from pin_requests where id = $1 and tenant_id = $2`, [
    id,
    tenantId,
  ])
  return rows[0] && toPinRequest(rows[0])
}

export async function listPinRequests(
  db: Queryable,
  tenantId: string,
  filter: PinRequestFilter,
  page: PageRequest,
): Promise<Page<PinRequestRecord>> {
  const params = new Params()
  const conditions = [`tenant_id = ${params.add(tenantId)}`]
  if (filter.states) conditions.push(`state = any(${params.add(filter.states)}::text[])`)
  if (filter.failures) conditions.push(`failure = any(${params.add(filter.failures)}::text[])`)
  if (filter.cid !== undefined) conditions.push(`cid = ${params.add(filter.cid)}`)
  const { condition, orderAndLimit } = keyset(page, params)
  if (condition) conditions.push(condition)
  const { rows } = await db.query(
    `select ${COLUMNS} from pin_requests where ${conditions.join(' and ')} ${orderAndLimit}`,
    params.values,
  )
  return toPage(rows.map(toPinRequest), page)
}

/**
 * One statement: the inner SELECT locks the oldest claimable row and skips rows other claimers
 * hold locked, so concurrent claimers in any process each take a different request (or none).
 */
export async function claimPinRequest(
  db: Queryable,
  owner: string,
  now: Date,
  leaseMs: number,
): Promise<PinRequestRecord | undefined> {
  const { rows } = await db.query(
    `update pin_requests
     set state = 'retrieving', lease_owner = $1, lease_expires_at = $2::timestamptz + make_interval(secs => $3::double precision / 1000),
         attempts = attempts + 1
     where id = (
       select id from pin_requests
       where state = 'queued' or (state = 'retrieving' and lease_expires_at <= $2::timestamptz)
       order by created_at, id
       for update skip locked
       limit 1
     )
     returning ${COLUMNS}`,
    [owner, now.toISOString(), leaseMs],
  )
  return rows[0] && toPinRequest(rows[0])
}

const HELD = `id = $1 and state = 'retrieving' and lease_owner = $2`

export async function renewPinLease(db: Queryable, id: string, owner: string, until: Date): Promise<boolean> {
  const { rows } = await db.query(
    `update pin_requests set lease_expires_at = $3::timestamptz where ${HELD} returning id`,
    [id, owner, until.toISOString()],
  )
  return rows.length === 1
}

export async function finishPinRequest(
  db: Queryable,
  id: string,
  owner: string,
  outcome: PinOutcome,
): Promise<boolean> {
  const failed = outcome.state === 'failed' ? outcome : undefined
  const { rows } = await db.query(
    `update pin_requests
     set state = $3, failure = $4, reason = $5, lease_owner = null, lease_expires_at = null
     where ${HELD} returning id`,
    [id, owner, outcome.state, failed?.failure ?? null, failed?.reason ?? null],
  )
  return rows.length === 1
}

export async function releasePinRequest(db: Queryable, id: string, owner: string): Promise<boolean> {
  const { rows } = await db.query(
    `update pin_requests set state = 'queued', lease_owner = null, lease_expires_at = null where ${HELD} returning id`,
    [id, owner],
  )
  return rows.length === 1
}

export async function deletePinRequest(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<PinRequestRecord | undefined> {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(
    `delete from pin_requests where id = $1 and tenant_id = $2 and state <> 'pinned' returning ${COLUMNS}`,
    [id, tenantId],
  )
  return rows[0] && toPinRequest(rows[0])
}

function toPinRequest(row: Row): PinRequestRecord {
  const keyvalues = typeof row.keyvalues === 'string' ? JSON.parse(row.keyvalues) : row.keyvalues
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    userId: String(row.user_id),
    cid: String(row.cid),
    name: String(row.name),
    groupId: row.group_id === null ? null : String(row.group_id),
    keyvalues: keyvalues as KeyValues,
    hostNodes: (row.host_nodes as unknown[]).map(String),
    state: row.state as PinRequestState,
    failure: row.failure === null ? null : (row.failure as PinFailure),
    reason: row.reason === null ? null : String(row.reason),
    createdAt: toDate(row.created_at),
    attempts: Number(row.attempts),
    leaseOwner: row.lease_owner === null ? null : String(row.lease_owner),
    leaseExpiresAt: row.lease_expires_at === null ? null : toDate(row.lease_expires_at),
  }
}
