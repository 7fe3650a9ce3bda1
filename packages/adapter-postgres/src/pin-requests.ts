import type {
  KeyValues,
  NewEvent,
  Page,
  PageRequest,
  PinFailure,
  PinOutcome,
  PinRequestFilter,
  PinRequestRecord,
  PinRequestRecordStore,
  PinRequestState,
} from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { guarded } from './errors.js'
import { appendEvents, withEvents } from './events.js'
import { keyset, toPage } from './paging.js'
import type { Queryable, Row, SqlClient } from './queryable.js'
import { toDate } from './rows.js'
import { isUuid, Params } from './sql.js'

const COLUMNS =
  'id, tenant_id, user_id, cid, name, group_id, keyvalues, host_nodes, state, failure, reason, created_at, attempts, lease_owner, lease_expires_at, replaces, dag_size'

/**
 * With a cap, the count and the insert run under a transaction-scoped advisory lock on the tenant,
 * so concurrent creates for one tenant count one after the other and never overshoot it.
 */
async function createPinRequest(
  client: SqlClient,
  r: PinRequestRecord,
  maxOpenPerTenant: number | undefined,
  events: readonly NewEvent[] | undefined,
): Promise<void> {
  if (maxOpenPerTenant === undefined && !events?.length) return insertPinRequest(client, r)
  await client.transaction(async (tx) => {
    await checkCap(tx, r.tenantId, maxOpenPerTenant)
    await insertPinRequest(tx, r)
    await appendEvents(tx, events)
  })
}

/** Refuses past the cap (`RATE_LIMITED`); the lock makes a tenant's creates count one after the other. */
async function checkCap(tx: Queryable, tenantId: string, maxOpenPerTenant: number | undefined): Promise<void> {
  if (maxOpenPerTenant === undefined) return
  await tx.query(`select pg_advisory_xact_lock(hashtextextended('pinfold_pin_queue:' || $1, 0))`, [tenantId])
  const { rows } = await tx.query(
    `select count(*)::int as open from pin_requests where tenant_id = $1 and state in ('queued', 'retrieving')`,
    [tenantId],
  )
  if (Number(rows[0]?.open) >= maxOpenPerTenant) {
    throw new PinfoldError('RATE_LIMITED', `tenant ${tenantId} has ${maxOpenPerTenant} pin requests open`)
  }
}

/**
 * The replaced row is deleted first (its row lock makes a concurrent replace of it find nothing),
 * then the cap counts without it, then the new row goes in: one transaction, so a refusal past the
 * cap leaves the replaced request as it was.
 */
async function replacePinRequest(
  client: SqlClient,
  replacedId: string,
  r: PinRequestRecord,
  maxOpenPerTenant: number | undefined,
  events: readonly NewEvent[] | undefined,
): Promise<PinRequestRecord | undefined> {
  if (!isUuid(replacedId)) return undefined
  return client.transaction(async (tx) => {
    const { rows } = await tx.query(`delete from pin_requests where id = $1 and tenant_id = $2 returning ${COLUMNS}`, [
      replacedId,
      r.tenantId,
    ])
    if (!rows[0]) return undefined
    const replaced = toPinRequest(rows[0])
    await checkCap(tx, r.tenantId, maxOpenPerTenant)
    await insertPinRequest(tx, { ...r, replaces: replaced.state === 'pinned' ? replaced.id : replaced.replaces })
    await appendEvents(tx, events)
    return replaced
  })
}
async function insertPinRequest(db: Queryable, r: PinRequestRecord): Promise<void> {
  await db.query(
    `insert into pin_requests (${COLUMNS})
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::text[], $9, $10, $11, $12::timestamptz, $13, $14, $15::timestamptz,
             $16::uuid, $17)`,
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
      r.replaces,
      r.dagSize,
    ],
  )
}

async function getPinRequest(db: Queryable, tenantId: string, id: string): Promise<PinRequestRecord | undefined> {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(`select ${COLUMNS} from pin_requests where id = $1 and tenant_id = $2`, [
    id,
    tenantId,
  ])
  return rows[0] && toPinRequest(rows[0])
}

async function listPinRequests(
  db: Queryable,
  tenantId: string,
  filter: PinRequestFilter,
  page: PageRequest,
): Promise<Page<PinRequestRecord>> {
  const params = new Params()
  const conditions = filterConditions(tenantId, filter, params)
  const { condition, orderAndLimit } = keyset(page, params)
  if (condition) conditions.push(condition)
  const { rows } = await db.query(
    `select ${COLUMNS} from pin_requests where ${conditions.join(' and ')} ${orderAndLimit}`,
    params.values,
  )
  return toPage(rows.map(toPinRequest), page)
}

/** Every tenant's requests in the given states: the `(state, created_at, id)` index serves one state. */
async function listPinQueue(
  db: Queryable,
  states: readonly PinRequestState[] | undefined,
  page: PageRequest,
): Promise<Page<PinRequestRecord>> {
  const params = new Params()
  const conditions = ['true']
  if (states?.length === 1) conditions.push(`state = ${params.add(states[0])}`)
  else if (states) conditions.push(`state = any(${params.add(states)}::text[])`)
  const { condition, orderAndLimit } = keyset(page, params)
  if (condition) conditions.push(condition)
  const { rows } = await db.query(
    `select ${COLUMNS} from pin_requests where ${conditions.join(' and ')} ${orderAndLimit}`,
    params.values,
  )
  return toPage(rows.map(toPinRequest), page)
}

function filterConditions(tenantId: string, filter: PinRequestFilter, params: Params): string[] {
  const conditions = [`tenant_id = ${params.add(tenantId)}`]
  // one state as an equality: the planner then walks (tenant_id, state, created_at) in order
  if (filter.states?.length === 1) conditions.push(`state = ${params.add(filter.states[0])}`)
  else if (filter.states) conditions.push(`state = any(${params.add(filter.states)}::text[])`)
  if (filter.failures) conditions.push(`failure = any(${params.add(filter.failures)}::text[])`)
  if (filter.cids) conditions.push(`cid = any(${params.add(filter.cids)}::text[])`)
  if (filter.name) conditions.push(nameCondition(filter.name, params))
  if (filter.before) conditions.push(`created_at < ${params.add(filter.before.toISOString())}::timestamptz`)
  if (filter.after) conditions.push(`created_at > ${params.add(filter.after.toISOString())}::timestamptz`)
  if (filter.keyvalues) conditions.push(`keyvalues @> ${params.add(JSON.stringify(filter.keyvalues))}::jsonb`)
  return conditions
}

/** `strpos`, not LIKE: the text is matched literally, `%` and `_` included. */
function nameCondition({ text, match }: NonNullable<PinRequestFilter['name']>, params: Params): string {
  const value = params.add(text)
  switch (match) {
    case 'exact':
      return `name = ${value}`
    case 'iexact':
      return `lower(name) = lower(${value})`
    case 'partial':
      return `strpos(name, ${value}) > 0`
    case 'ipartial':
      return `strpos(lower(name), lower(${value})) > 0`
  }
}

/**
 * A filter of states alone reads the per-state counts `pin_request_counts` keeps (a trigger moves
 * them with every insert, state change and delete), so the count of a tenant's millions of pins
 * costs what the count of ten does. With `before` too (the spec's paging), the rows created at or
 * after it are counted and taken from that sum, in one statement (one snapshot): a page costs the
 * rows above it, which is few for the first pages a client reads. Any other filter counts the rows
 * it matches.
 */
async function countPinRequests(db: Queryable, tenantId: string, filter: PinRequestFilter): Promise<number> {
  const { states, before, ...rest } = filter
  const params = new Params()
  if (Object.values(rest).every((value) => value === undefined)) {
    const tenant = params.add(tenantId)
    const stateList = states && params.add(states)
    const inStates = stateList ? ` and state = any(${stateList}::text[])` : ''
    const total = `(select coalesce(sum(count), 0) from pin_request_counts where tenant_id = ${tenant}${inStates})`
    const newer = before
      ? ` - (select count(*) from pin_requests where tenant_id = ${tenant}${inStates} and created_at >= ${params.add(before.toISOString())}::timestamptz)`
      : ''
    const { rows } = await db.query(`select (${total}${newer})::bigint as count`, params.values)
    return Number(rows[0]?.count ?? 0)
  }
  const conditions = filterConditions(tenantId, filter, params)
  const { rows } = await db.query(
    `select count(*)::bigint as count from pin_requests where ${conditions.join(' and ')}`,
    params.values,
  )
  return Number(rows[0]?.count ?? 0)
}

/**
 * Claims decide one after the other: a transaction-scoped advisory lock serialises them across
 * processes, so each reads the running counts and turns the claims before it left. Under it one
 * statement ranks the tenants (fewest running, served longest ago, oldest waiting request), takes
 * the chosen tenant's oldest claimable row (skipping a row a deletion holds locked) and records
 * the tenant's turn.
 */
async function claimPinRequest(
  client: SqlClient,
  owner: string,
  now: Date,
  leaseMs: number,
  maxRunningPerTenant: number | undefined,
  excludeTenants: readonly string[] = [],
): Promise<PinRequestRecord | undefined> {
  return client.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext('pinfold_pin_claims'))`)
    const { rows } = await tx.query(
      `with open_requests as (
         select tenant_id, created_at, (state = 'retrieving' and lease_expires_at > $2::timestamptz) as running
         from pin_requests where state in ('queued', 'retrieving') and tenant_id <> all($5::text[])
       ),
       tenants as (
         select tenant_id, count(*) filter (where running) as running, min(created_at) filter (where not running) as oldest
         from open_requests group by tenant_id
       ),
       chosen as (
         select tenants.tenant_id from tenants left join pin_tenant_turns turns using (tenant_id)
         where tenants.oldest is not null and ($4::int is null or tenants.running < $4::int)
         order by tenants.running, coalesce(turns.turn, 0), tenants.oldest, tenants.tenant_id
         limit 1
       ),
       claimed as (
         update pin_requests
         set state = 'retrieving', lease_owner = $1,
             lease_expires_at = $2::timestamptz + make_interval(secs => $3::double precision / 1000),
             attempts = attempts + 1
         where id = (
           select id from pin_requests
           where tenant_id = (select tenant_id from chosen)
             and (state = 'queued' or (state = 'retrieving' and lease_expires_at <= $2::timestamptz))
           order by created_at, id
           for update skip locked
           limit 1
         )
         returning ${COLUMNS}
       ),
       turned as (
         insert into pin_tenant_turns (tenant_id, turn)
         select tenant_id, (select coalesce(max(turn), 0) + 1 from pin_tenant_turns) from claimed
         on conflict (tenant_id) do update set turn = excluded.turn
       )
       select * from claimed`,
      [owner, now.toISOString(), leaseMs, maxRunningPerTenant ?? null, excludeTenants],
    )
    return rows[0] && toPinRequest(rows[0])
  })
}

const HELD = `id = $1 and state = 'retrieving' and lease_owner = $2`

async function renewPinLease(db: Queryable, id: string, owner: string, until: Date): Promise<boolean> {
  const { rows } = await db.query(
    `update pin_requests set lease_expires_at = $3::timestamptz where ${HELD} returning id`,
    [id, owner, until.toISOString()],
  )
  return rows.length === 1
}

async function finishPinRequest(db: Queryable, id: string, owner: string, outcome: PinOutcome): Promise<boolean> {
  const failed = outcome.state === 'failed' ? outcome : undefined
  const { rows } = await db.query(
    `update pin_requests
     set state = $3, failure = $4, reason = $5, dag_size = $6, lease_owner = null, lease_expires_at = null
     where ${HELD} returning id`,
    [
      id,
      owner,
      outcome.state,
      failed?.failure ?? null,
      failed?.reason ?? null,
      outcome.state === 'pinned' ? outcome.dagSize : null,
    ],
  )
  return rows.length === 1
}

async function releasePinRequest(db: Queryable, id: string, owner: string, attempted: boolean): Promise<boolean> {
  const { rows } = await db.query(
    `update pin_requests
     set state = 'queued', lease_owner = null, lease_expires_at = null,
         attempts = case when $3::boolean then attempts else attempts - 1 end
     where ${HELD} returning id`,
    [id, owner, attempted],
  )
  return rows.length === 1
}

async function deletePinRequest(
  db: Queryable,
  tenantId: string,
  id: string,
  pinned: boolean,
): Promise<PinRequestRecord | undefined> {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(
    `delete from pin_requests where id = $1 and tenant_id = $2 and ($3 or state <> 'pinned') returning ${COLUMNS}`,
    [id, tenantId, pinned],
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
    replaces: row.replaces === null ? null : String(row.replaces),
    dagSize: row.dag_size === null ? null : Number(row.dag_size),
  }
}

/** The record store's pinRequests part over `client`, each call guarded (see `guarded`). */
export function postgresPinRequestRecords(client: SqlClient): PinRequestRecordStore {
  return {
    createPinRequest: (request, options) =>
      guarded('createPinRequest', options, () =>
        createPinRequest(client, request, options?.maxOpenPerTenant, options?.events),
      ),
    getPinRequest: (tenantId, id, options) =>
      guarded('getPinRequest', options, () => getPinRequest(client, tenantId, id)),
    listPinRequests: (tenantId, filter, page, options) =>
      guarded('listPinRequests', options, () => listPinRequests(client, tenantId, filter, page)),
    listPinQueue: ({ states }, page, options) =>
      guarded('listPinQueue', options, () => listPinQueue(client, states, page)),
    countPinRequests: (tenantId, filter, options) =>
      guarded('countPinRequests', options, () => countPinRequests(client, tenantId, filter)),
    replacePinRequest: (replacedId, request, options) =>
      guarded('replacePinRequest', options, () =>
        replacePinRequest(client, replacedId, request, options?.maxOpenPerTenant, options?.events),
      ),
    claimPinRequest: (owner, now, leaseMs, options) =>
      guarded('claimPinRequest', options, () =>
        claimPinRequest(client, owner, now, leaseMs, options?.maxRunningPerTenant, options?.excludeTenants),
      ),
    renewPinLease: (id, owner, until, options) =>
      guarded('renewPinLease', options, () => renewPinLease(client, id, owner, until)),
    finishPinRequest: (id, owner, outcome, options) =>
      guarded('finishPinRequest', options, () =>
        withEvents(client, options?.events, (db) => finishPinRequest(db, id, owner, outcome), Boolean),
      ),
    releasePinRequest: (id, owner, options) =>
      guarded('releasePinRequest', options, () => releasePinRequest(client, id, owner, options?.attempted === true)),
    deletePinRequest: (tenantId, id, options) =>
      guarded('deletePinRequest', options, () =>
        withEvents(
          client,
          options?.events,
          (db) => deletePinRequest(db, tenantId, id, options?.pinned === true),
          Boolean,
        ),
      ),
  }
}
