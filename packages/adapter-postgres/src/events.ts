import type { EventFilter, EventPageRequest, EventRecord, EventRecordStore, NewEvent, Page } from '@pinfold/interface'
import { guarded } from './errors.js'
import type { Queryable, Row, SqlClient } from './queryable.js'
import { toDate } from './rows.js'
import { Params } from './sql.js'

const COLUMNS = 'seq, id, tenant_id, type, actor_kind, actor_id, request_id, target_kind, target_id, data, at'

function toEventRecord(row: Row): EventRecord {
  return {
    id: String(row.id),
    // pg returns bigint as a string, PGlite as a number; a log stays far below 2^53 entries
    seq: Number(row.seq),
    tenantId: String(row.tenant_id),
    type: String(row.type),
    actor: { kind: row.actor_kind as EventRecord['actor']['kind'], id: String(row.actor_id) },
    requestId: row.request_id === null ? null : String(row.request_id),
    target: { kind: String(row.target_kind), id: String(row.target_id) },
    data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
    at: toDate(row.at),
  }
}

/**
 * Inserts events on `db`, which is the transaction of the change they record: a constraint they
 * break rolls the change back, and a change that fails never reaches this. One statement for all.
 */
export async function appendEvents(db: Queryable, events: readonly NewEvent[] | undefined): Promise<EventRecord[]> {
  if (!events || events.length === 0) return []
  const params = new Params()
  const tuples = events.map(
    (event) =>
      `(${[
        params.add(crypto.randomUUID()),
        params.add(event.tenantId),
        params.add(event.type),
        params.add(event.actor.kind),
        params.add(event.actor.id),
        params.add(event.requestId),
        params.add(event.target.kind),
        params.add(event.target.id),
        `${params.add(JSON.stringify(event.data))}::jsonb`,
        'now()',
      ].join(', ')})`,
  )
  const { rows } = await db.query(
    `insert into events (id, tenant_id, type, actor_kind, actor_id, request_id, target_kind, target_id, data, at)
     values ${tuples.join(', ')} returning ${COLUMNS}`,
    params.values,
  )
  return rows.map(toEventRecord).sort((a, b) => a.seq - b.seq)
}

/**
 * How a write that is one statement without events records them: with events it runs in a
 * transaction and appends them when `changed` says the statement changed something.
 */
export async function withEvents<T>(
  client: SqlClient,
  events: readonly NewEvent[] | undefined,
  work: (db: Queryable) => Promise<T>,
  changed: (result: T) => boolean,
): Promise<T> {
  if (!events || events.length === 0) return work(client)
  return client.transaction(async (tx) => {
    const result = await work(tx)
    if (changed(result)) await appendEvents(tx, events)
    return result
  })
}

async function listEvents(db: Queryable, filter: EventFilter, page: EventPageRequest): Promise<Page<EventRecord>> {
  const params = new Params()
  const where: string[] = []
  if (filter.tenantId !== undefined) where.push(`tenant_id = ${params.add(filter.tenantId)}`)
  if (filter.types && filter.types.length > 0) where.push(`type = any(${params.add(filter.types)}::text[])`)
  if (filter.from) where.push(`at >= ${params.add(filter.from.toISOString())}::timestamptz`)
  if (filter.to) where.push(`at < ${params.add(filter.to.toISOString())}::timestamptz`)
  const direction = page.order === 'asc' ? 'asc' : 'desc'
  if (page.afterSeq !== undefined) where.push(`seq ${direction === 'asc' ? '>' : '<'} ${params.add(page.afterSeq)}`)
  const { rows } = await db.query(
    `select ${COLUMNS} from events ${where.length > 0 ? `where ${where.join(' and ')}` : ''}
     order by seq ${direction} limit ${params.add(page.limit + 1)}`,
    params.values,
  )
  return { items: rows.slice(0, page.limit).map(toEventRecord), hasMore: rows.length > page.limit }
}

async function pruneEvents(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rows } = await db.query(
    `with gone as (
       delete from events where seq in (select seq from events where at < $1::timestamptz order by at limit $2)
       returning 1
     ) select count(*) as n from gone`,
    [before.toISOString(), limit],
  )
  return Number(rows[0]?.n ?? 0)
}

export function postgresEventRecords(client: SqlClient): EventRecordStore {
  return {
    appendEvents: (events, options) =>
      guarded('appendEvents', options, () => client.transaction((tx) => appendEvents(tx, events))),
    listEvents: (filter, page, options) => guarded('listEvents', options, () => listEvents(client, filter, page)),
    pruneEvents: (before, limit, options) => guarded('pruneEvents', options, () => pruneEvents(client, before, limit)),
  }
}
