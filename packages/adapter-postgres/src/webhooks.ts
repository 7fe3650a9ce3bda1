import type {
  NewEvent,
  Page,
  PageRequest,
  WebhookAttemptOutcome,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookEndpointDisable,
  WebhookEndpointPatch,
  WebhookEndpointRecord,
  WebhookEndpointUpdateOptions,
  WebhookEvent,
  WebhookRecordStore,
} from '@pinfold/interface'
import { endpointPatchWrite, PinfoldError } from '@pinfold/interface'
import { guarded } from './errors.js'
import { appendEvents, withEvents } from './events.js'
import { keyset, toPage } from './paging.js'
import type { Queryable, Row, SqlClient } from './queryable.js'
import { toDate } from './rows.js'
import { isUuid, Params } from './sql.js'

const ENDPOINT_COLUMNS =
  'id, tenant_id, url, event_types, description, secret, enabled, created_at, updated_at, disabled_at, disabled_reason, failing_since, previous_secret, previous_secret_expires_at'
const DELIVERY_COLUMNS =
  'id, endpoint_id, tenant_id, event, status, attempts, next_attempt_at, last_attempt_at, last_status_code, last_error, lease_owner, lease_expires_at, created_at'
/** `tenant_id is not distinct from $n`: the operator's rows (null) match null, a tenant's its id. */
const OWNER = (param: string) => `tenant_id is not distinct from ${param}::text`

/**
 * With a cap, an advisory lock on the owner makes concurrent creates count one after the other; the
 * events go in with the row.
 */
async function createEndpoint(
  client: SqlClient,
  e: WebhookEndpointRecord,
  cap: number | undefined,
  events: readonly NewEvent[] | undefined,
): Promise<void> {
  await client.transaction(async (tx) => {
    if (cap !== undefined) {
      await tx.query(`select pg_advisory_xact_lock(hashtextextended('pinfold_webhooks:' || coalesce($1, ''), 0))`, [
        e.tenantId,
      ])
      const { rows } = await tx.query(`select count(*)::int as n from webhook_endpoints where ${OWNER('$1')}`, [
        e.tenantId,
      ])
      if (Number(rows[0]?.n) >= cap) throw new PinfoldError('RATE_LIMITED', `at most ${cap} webhook endpoints`)
    }
    await tx.query(
      `insert into webhook_endpoints (${ENDPOINT_COLUMNS})
       values ($1, $2, $3, $4::text[], $5, $6, $7, $8::timestamptz, $9::timestamptz, $10::timestamptz, $11,
               $12::timestamptz, $13, $14::timestamptz)`,
      [
        e.id,
        e.tenantId,
        e.url,
        e.eventTypes,
        e.description,
        e.secret,
        e.enabled,
        e.createdAt.toISOString(),
        e.updatedAt.toISOString(),
        e.disabledAt?.toISOString() ?? null,
        e.disabledReason,
        e.failingSince?.toISOString() ?? null,
        e.previousSecret,
        e.previousSecretExpiresAt?.toISOString() ?? null,
      ],
    )
    await appendEvents(tx, events)
  })
}

async function getEndpoint(db: Queryable, tenantId: string | null, id: string) {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(
    `select ${ENDPOINT_COLUMNS} from webhook_endpoints where id = $1 and ${OWNER('$2')}`,
    [id, tenantId],
  )
  return rows[0] && toEndpoint(rows[0])
}

async function listEndpoints(db: Queryable, tenantId: string | null, page: PageRequest) {
  const params = new Params()
  const conditions = [OWNER(params.add(tenantId))]
  const { condition, orderAndLimit } = keyset(page, params)
  if (condition) conditions.push(condition)
  const { rows } = await db.query(
    `select ${ENDPOINT_COLUMNS} from webhook_endpoints where ${conditions.join(' and ')} ${orderAndLimit}`,
    params.values,
  )
  return toPage(rows.map(toEndpoint), page)
}

/**
 * The row is locked before the patch is judged, so a toggle is weighed against the state the
 * endpoint has while this transaction holds it: of two concurrent identical toggles the second
 * waits for the first, then finds nothing to change and records nothing.
 */
async function updateRecorded(
  client: SqlClient,
  tenantId: string | null,
  id: string,
  patch: WebhookEndpointPatch,
  updatedAt: Date,
  options: WebhookEndpointUpdateOptions | undefined,
) {
  if (!isUuid(id)) return undefined
  return client.transaction(async (tx) => {
    const { rows } = await tx.query(
      `select ${ENDPOINT_COLUMNS} from webhook_endpoints where id = $1 and ${OWNER('$2')} for update`,
      [id, tenantId],
    )
    if (!rows[0]) return undefined
    const current = toEndpoint(rows[0])
    const write = endpointPatchWrite(patch, current.enabled, options)
    if (!write) return current
    const updated = await updateEndpoint(tx, tenantId, id, patch, updatedAt)
    await appendEvents(tx, write.events)
    return updated
  })
}

async function updateEndpoint(
  db: Queryable,
  tenantId: string | null,
  id: string,
  patch: WebhookEndpointPatch,
  updatedAt: Date,
) {
  if (!isUuid(id)) return undefined
  // the state columns read the row as it was (SQL's set clauses all see the old values)
  const { rows } = await db.query(
    `update webhook_endpoints
     set url = coalesce($3, url), event_types = coalesce($4::text[], event_types),
         description = coalesce($5, description), enabled = coalesce($6, enabled), updated_at = $7::timestamptz,
         disabled_at = case when $6 is null or $6 = enabled then disabled_at when $6 then null else $7::timestamptz end,
         disabled_reason = case when $6 is null or $6 = enabled then disabled_reason when $6 then null else $8 end,
         failing_since = case when $6 and not enabled then null else failing_since end
     where id = $1 and ${OWNER('$2')} returning ${ENDPOINT_COLUMNS}`,
    [
      id,
      tenantId,
      patch.url ?? null,
      patch.eventTypes ?? null,
      patch.description ?? null,
      patch.enabled ?? null,
      updatedAt.toISOString(),
      patch.disabledReason ?? 'disabled by its owner',
    ],
  )
  return rows[0] && toEndpoint(rows[0])
}

async function deleteEndpoint(db: Queryable, tenantId: string | null, id: string): Promise<boolean> {
  if (!isUuid(id)) return false
  const { rows } = await db.query(`delete from webhook_endpoints where id = $1 and ${OWNER('$2')} returning id`, [
    id,
    tenantId,
  ])
  return rows.length === 1
}

/**
 * One statement, so one transaction: the events taken are locked (`skip locked`: a concurrent
 * fan-out takes the next ones, never the same), their deliveries inserted, and the events marked.
 * The unique (endpoint, event) is the second guard: nothing can queue a pair twice.
 */
async function fanOut(db: Queryable, limit: number, now: Date): Promise<number> {
  const { rows } = await db.query(
    `with taken as (
       select seq, id, tenant_id, type, actor_kind, actor_id, request_id, target_kind, target_id, data, at
       from events where not fanned_out order by seq limit $1 for update skip locked
     ),
     queued as (
       insert into webhook_deliveries (id, endpoint_id, tenant_id, event_id, event, status, attempts, next_attempt_at, created_at)
       select gen_random_uuid(), e.id, e.tenant_id, t.id,
              jsonb_build_object('id', t.id, 'type', t.type, 'tenantId', t.tenant_id, 'at', t.at,
                'actor', jsonb_build_object('kind', t.actor_kind, 'id', t.actor_id), 'requestId', t.request_id,
                'target', jsonb_build_object('kind', t.target_kind, 'id', t.target_id), 'data', t.data),
              'pending', 0, $2::timestamptz, $2::timestamptz
       from taken t join webhook_endpoints e
         on e.enabled and (e.tenant_id is null or e.tenant_id = t.tenant_id) and t.type = any(e.event_types)
       on conflict (endpoint_id, event_id) do nothing
     ),
     marked as (update events set fanned_out = true where seq in (select seq from taken) returning seq)
     select count(*)::int as n from marked`,
    [limit, now.toISOString()],
  )
  return Number(rows[0]?.n ?? 0)
}

async function addDelivery(db: Queryable, d: WebhookDeliveryRecord): Promise<void> {
  await db.query(
    `insert into webhook_deliveries (${DELIVERY_COLUMNS}, event_id)
     values ($1, $2, $3, $4::jsonb, $5, $6, $7::timestamptz, $8::timestamptz, $9, $10, $11, $12::timestamptz,
             $13::timestamptz, $14)`,
    [
      d.id,
      d.endpointId,
      d.tenantId,
      JSON.stringify(d.event),
      d.status,
      d.attempts,
      d.nextAttemptAt?.toISOString() ?? null,
      d.lastAttemptAt?.toISOString() ?? null,
      d.lastStatusCode,
      d.lastError,
      d.leaseOwner,
      d.leaseExpiresAt?.toISOString() ?? null,
      d.createdAt.toISOString(),
      d.event.id,
    ],
  )
}

async function listDeliveries(
  db: Queryable,
  tenantId: string | null,
  endpointId: string,
  page: PageRequest,
): Promise<Page<WebhookDeliveryRecord>> {
  if (!isUuid(endpointId)) return { items: [], hasMore: false }
  const params = new Params()
  const conditions = [`endpoint_id = ${params.add(endpointId)}`, OWNER(params.add(tenantId))]
  const { condition, orderAndLimit } = keyset(page, params)
  if (condition) conditions.push(condition)
  const { rows } = await db.query(
    `select ${DELIVERY_COLUMNS} from webhook_deliveries where ${conditions.join(' and ')} ${orderAndLimit}`,
    params.values,
  )
  return toPage(rows.map(toDelivery), page)
}

/**
 * Claims decide one after the other under a transaction-scoped advisory lock (each sees the
 * running counts and turns the ones before it left); one statement then ranks the owners (fewest
 * running, served longest ago, earliest due) among deliveries whose endpoint has room, takes the
 * chosen owner's earliest due row and records the owner's turn.
 */
async function claim(
  client: SqlClient,
  owner: string,
  now: Date,
  leaseMs: number,
  tenantCap: number | undefined,
  endpointCap: number | undefined,
): Promise<WebhookDeliveryRecord | undefined> {
  return client.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext('pinfold_webhook_claims'))`)
    const { rows } = await tx.query(
      `with open as (
         select d.id, d.endpoint_id, coalesce(d.tenant_id, '') as owner, d.next_attempt_at,
                (d.status = 'delivering' and d.lease_expires_at > $2::timestamptz) as running,
                e.enabled and ((d.status = 'pending' and d.next_attempt_at <= $2::timestamptz)
                  or (d.status = 'delivering' and d.lease_expires_at <= $2::timestamptz)) as due
         from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
         where d.status in ('pending', 'delivering')
       ),
       endpoint_running as (select endpoint_id, count(*) as n from open where running group by endpoint_id),
       owner_running as (select owner, count(*) as n from open where running group by owner),
       candidates as (
         select open.id, open.owner, open.next_attempt_at from open
         left join endpoint_running er using (endpoint_id)
         where open.due and ($5::int is null or coalesce(er.n, 0) < $5::int)
       ),
       chosen as (
         select c.owner from candidates c
         left join owner_running r using (owner) left join webhook_turns t using (owner)
         where $4::int is null or coalesce(r.n, 0) < $4::int
         group by c.owner, r.n, t.turn
         order by coalesce(r.n, 0), coalesce(t.turn, 0), min(c.next_attempt_at), c.owner
         limit 1
       ),
       claimed as (
         update webhook_deliveries
         set status = 'delivering', lease_owner = $1, attempts = attempts + 1,
             lease_expires_at = $2::timestamptz + make_interval(secs => $3::double precision / 1000)
         where id = (
           select id from webhook_deliveries
           where id in (select id from candidates where owner = (select owner from chosen))
           order by next_attempt_at, id
           for update skip locked
           limit 1
         )
         returning ${DELIVERY_COLUMNS}
       ),
       turned as (
         insert into webhook_turns (owner, turn)
         select coalesce(tenant_id, ''), (select coalesce(max(turn), 0) + 1 from webhook_turns) from claimed
         on conflict (owner) do update set turn = excluded.turn
       )
       select * from claimed`,
      [owner, now.toISOString(), leaseMs, tenantCap ?? null, endpointCap ?? null],
    )
    return rows[0] && toDelivery(rows[0])
  })
}

const HELD = `id = $1 and status = 'delivering' and lease_owner = $2`

/** One statement: the attempt is recorded and its endpoint's failing streak kept, or neither. */
async function finish(db: Queryable, id: string, owner: string, outcome: WebhookAttemptOutcome): Promise<boolean> {
  if (!isUuid(id)) return false
  const { rows } = await db.query(
    `with finished as (
       update webhook_deliveries
       set status = $3, last_attempt_at = $4::timestamptz, last_status_code = $5, last_error = $6,
           next_attempt_at = $7::timestamptz, lease_owner = null, lease_expires_at = null
       where ${HELD} returning id, endpoint_id
     ),
     streak as (
       update webhook_endpoints
       set failing_since = case when $3 = 'delivered' then null else coalesce(failing_since, $4::timestamptz) end
       where id = (select endpoint_id from finished)
     )
     select id from finished`,
    [
      id,
      owner,
      outcome.status,
      outcome.at.toISOString(),
      outcome.statusCode,
      outcome.status === 'delivered' ? null : outcome.error,
      outcome.status === 'pending' ? outcome.nextAttemptAt.toISOString() : null,
    ],
  )
  return rows.length === 1
}

async function disableFailing(db: Queryable, id: string, disable: WebhookEndpointDisable) {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(
    `update webhook_endpoints
     set enabled = false, disabled_at = $3::timestamptz, disabled_reason = $4, updated_at = $3::timestamptz
     where id = $1 and enabled and failing_since <= $2::timestamptz returning ${ENDPOINT_COLUMNS}`,
    [id, disable.failingBefore.toISOString(), disable.at.toISOString(), disable.reason],
  )
  return rows[0] && toEndpoint(rows[0])
}

async function rotateSecret(
  db: Queryable,
  tenantId: string | null,
  id: string,
  secret: string,
  previousExpiresAt: Date,
  updatedAt: Date,
) {
  if (!isUuid(id)) return undefined
  const { rows } = await db.query(
    `update webhook_endpoints
     set previous_secret = secret, previous_secret_expires_at = $4::timestamptz, secret = $3, updated_at = $5::timestamptz
     where id = $1 and ${OWNER('$2')} returning ${ENDPOINT_COLUMNS}`,
    [id, tenantId, secret, previousExpiresAt.toISOString(), updatedAt.toISOString()],
  )
  return rows[0] && toEndpoint(rows[0])
}

async function release(db: Queryable, id: string, owner: string): Promise<boolean> {
  if (!isUuid(id)) return false
  const { rows } = await db.query(
    `update webhook_deliveries
     set status = 'pending', attempts = attempts - 1, lease_owner = null, lease_expires_at = null
     where ${HELD} returning id`,
    [id, owner],
  )
  return rows.length === 1
}

async function prune(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rows } = await db.query(
    `delete from webhook_deliveries where id in (
       select id from webhook_deliveries
       where status in ('delivered', 'failed') and last_attempt_at < $1::timestamptz
       order by last_attempt_at limit $2
     ) returning id`,
    [before.toISOString(), limit],
  )
  return rows.length
}

function toEndpoint(row: Row): WebhookEndpointRecord {
  return {
    id: String(row.id),
    tenantId: row.tenant_id === null ? null : String(row.tenant_id),
    url: String(row.url),
    eventTypes: (row.event_types as unknown[]).map(String),
    description: String(row.description),
    secret: String(row.secret),
    previousSecret: row.previous_secret === null ? null : String(row.previous_secret),
    previousSecretExpiresAt: dateOrNull(row.previous_secret_expires_at),
    enabled: Boolean(row.enabled),
    disabledAt: dateOrNull(row.disabled_at),
    disabledReason: row.disabled_reason === null ? null : String(row.disabled_reason),
    failingSince: dateOrNull(row.failing_since),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  }
}

const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : toDate(value))

function toDelivery(row: Row): WebhookDeliveryRecord {
  const event = (typeof row.event === 'string' ? JSON.parse(row.event) : row.event) as WebhookEvent & { at: string }
  return {
    id: String(row.id),
    endpointId: String(row.endpoint_id),
    tenantId: row.tenant_id === null ? null : String(row.tenant_id),
    event: { ...event, at: toDate(event.at) },
    status: row.status as WebhookDeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: dateOrNull(row.next_attempt_at),
    lastAttemptAt: dateOrNull(row.last_attempt_at),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error === null ? null : String(row.last_error),
    leaseOwner: row.lease_owner === null ? null : String(row.lease_owner),
    leaseExpiresAt: dateOrNull(row.lease_expires_at),
    createdAt: toDate(row.created_at),
  }
}

/** The record store's webhooks part over `client`, each call guarded (see `guarded`). */
export function postgresWebhookRecords(client: SqlClient): WebhookRecordStore {
  return {
    createWebhookEndpoint: (endpoint, options) =>
      guarded('createWebhookEndpoint', options, () =>
        createEndpoint(client, endpoint, options?.maxPerOwner, options?.events),
      ),
    getWebhookEndpoint: (tenantId, id, options) =>
      guarded('getWebhookEndpoint', options, () => getEndpoint(client, tenantId, id)),
    listWebhookEndpoints: (tenantId, page, options) =>
      guarded('listWebhookEndpoints', options, () => listEndpoints(client, tenantId, page)),
    updateWebhookEndpoint: (tenantId, id, patch, updatedAt, options) =>
      guarded('updateWebhookEndpoint', options, () => updateRecorded(client, tenantId, id, patch, updatedAt, options)),
    deleteWebhookEndpoint: (tenantId, id, options) =>
      guarded('deleteWebhookEndpoint', options, () =>
        withEvents(client, options?.events, (db) => deleteEndpoint(db, tenantId, id), Boolean),
      ),
    fanOutWebhookEvents: (limit, now, options) =>
      guarded('fanOutWebhookEvents', options, () => fanOut(client, limit, now)),
    addWebhookDelivery: (delivery, options) =>
      guarded('addWebhookDelivery', options, () => addDelivery(client, delivery)),
    listWebhookDeliveries: (tenantId, endpointId, page, options) =>
      guarded('listWebhookDeliveries', options, () => listDeliveries(client, tenantId, endpointId, page)),
    claimWebhookDelivery: (owner, now, leaseMs, options) =>
      guarded('claimWebhookDelivery', options, () =>
        claim(client, owner, now, leaseMs, options?.maxRunningPerTenant, options?.maxRunningPerEndpoint),
      ),
    finishWebhookAttempt: (id, owner, outcome, options) =>
      guarded('finishWebhookAttempt', options, () => finish(client, id, owner, outcome)),
    disableFailingWebhookEndpoint: (id, disable, options) =>
      guarded('disableFailingWebhookEndpoint', options, () =>
        withEvents(client, options?.events, (db) => disableFailing(db, id, disable), Boolean),
      ),
    rotateWebhookSecret: (tenantId, id, secret, previousExpiresAt, updatedAt, options) =>
      guarded('rotateWebhookSecret', options, () =>
        withEvents(
          client,
          options?.events,
          (db) => rotateSecret(db, tenantId, id, secret, previousExpiresAt, updatedAt),
          Boolean,
        ),
      ),
    releaseWebhookDelivery: (id, owner, options) =>
      guarded('releaseWebhookDelivery', options, () => release(client, id, owner)),
    pruneWebhookDeliveries: (before, limit, options) =>
      guarded('pruneWebhookDeliveries', options, () => prune(client, before, limit)),
  }
}
