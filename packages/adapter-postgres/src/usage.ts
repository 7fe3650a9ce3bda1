import type { UsageRecordStore } from '@pinfold/interface'
import {
  asOtherUsage,
  type GatewayUsageCount,
  type GatewayUsageQuery,
  type GatewayUsageRanking,
  type GatewayUsageTotal,
  OTHER_USAGE_CID,
} from '@pinfold/interface'
import { guarded } from './errors.js'
import type { Queryable, SqlClient } from './queryable.js'
import { Params } from './sql.js'

/** Rows per insert statement: well under PostgreSQL's 65535 parameters (7 per row). */
const ROWS_PER_STATEMENT = 1000

const key = (c: GatewayUsageCount) => JSON.stringify([c.tenantId, c.day, c.cid, c.fileName, c.status])
const dayKey = (c: { tenantId: string; day: string }) => JSON.stringify([c.tenantId, c.day])

/**
 * Adds a batch in one transaction, as multi-row upserts. Rows are sorted by their key first so
 * that two servers flushing overlapping batches lock rows in the same order and never deadlock.
 *
 * The cap on rows per (tenant, day): the transaction first takes an advisory lock on each of the
 * batch's (tenant, day), in one order, so servers flushing the same day queue there; under the
 * lock the rows it has and the batch's rows that exist are read, and new rows past the cap are
 * sent to the day's "other" row before anything is written.
 */
async function addGatewayUsage(
  client: SqlClient,
  counts: readonly GatewayUsageCount[],
  rowsPerTenantDay: number,
): Promise<void> {
  if (counts.length === 0) return
  await client.transaction(async (tx) => {
    const capped = await capRows(tx, counts, rowsPerTenantDay)
    const sorted = [...capped].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
    for (let start = 0; start < sorted.length; start += ROWS_PER_STATEMENT) {
      await upsert(tx, mergeDuplicates(sorted.slice(start, start + ROWS_PER_STATEMENT), key))
    }
  })
}

/** The batch with each count that would make a row past the cap turned into its day's "other" count. */
async function capRows(
  tx: Queryable,
  counts: readonly GatewayUsageCount[],
  rowsPerTenantDay: number,
): Promise<GatewayUsageCount[]> {
  const named = counts.map((c) => (c.cid === OTHER_USAGE_CID ? asOtherUsage(c) : c))
  const days = [...new Set(named.map(dayKey))].sort()
  const tenants = days.map((d) => JSON.parse(d)[0] as string)
  const dates = days.map((d) => JSON.parse(d)[1] as string)
  // a subquery's ORDER BY is kept (PostgreSQL does not flatten a sorted subquery): locks in key order
  await tx.query(
    `select pg_advisory_xact_lock(hashtextextended('gateway_usage ' || k, 0))
     from (select k from unnest($1::text[]) as k order by k) as days`,
    [days],
  )
  const rows = await tx.query(
    `select tenant_id, to_char(day, 'YYYY-MM-DD') as day, count(*) as rows from gateway_usage
     where (tenant_id, day) in (select * from unnest($1::text[], $2::date[])) and cid <> $3
     group by tenant_id, day`,
    [tenants, dates, OTHER_USAGE_CID],
  )
  const rowsOfDay = new Map(
    rows.rows.map((r) => [dayKey({ tenantId: String(r.tenant_id), day: String(r.day) }), Number(r.rows)]),
  )
  const held = await tx.query(
    `select tenant_id, to_char(day, 'YYYY-MM-DD') as day, cid, file_name, status from gateway_usage
     where (tenant_id, day, cid, file_name, status) in
       (select * from unnest($1::text[], $2::date[], $3::text[], $4::text[], $5::smallint[]))`,
    [
      named.map((c) => c.tenantId),
      named.map((c) => c.day),
      named.map((c) => c.cid),
      named.map((c) => c.fileName),
      named.map((c) => c.status),
    ],
  )
  const existing = new Set(
    held.rows.map((r) =>
      key({
        tenantId: String(r.tenant_id),
        day: String(r.day),
        cid: String(r.cid),
        fileName: String(r.file_name),
        status: Number(r.status),
        requests: 0,
        bytes: 0,
      }),
    ),
  )
  return named.map((count) => {
    if (count.cid === OTHER_USAGE_CID || existing.has(key(count))) return count
    const taken = rowsOfDay.get(dayKey(count)) ?? 0
    if (taken >= rowsPerTenantDay) return asOtherUsage(count)
    rowsOfDay.set(dayKey(count), taken + 1)
    existing.add(key(count))
    return count
  })
}

/** One statement may not touch a row twice (`on conflict do update` refuses it): sum duplicates first. */
function mergeDuplicates(counts: GatewayUsageCount[], key: (c: GatewayUsageCount) => string): GatewayUsageCount[] {
  const merged = new Map<string, GatewayUsageCount>()
  for (const count of counts) {
    const held = merged.get(key(count))
    if (held)
      merged.set(key(count), { ...held, requests: held.requests + count.requests, bytes: held.bytes + count.bytes })
    else merged.set(key(count), count)
  }
  return [...merged.values()]
}

async function upsert(tx: Queryable, counts: GatewayUsageCount[]): Promise<void> {
  const params = new Params()
  const values = counts.map(
    (c) =>
      `(${params.add(c.tenantId)}, ${params.add(c.day)}::date, ${params.add(c.cid)}, ${params.add(c.fileName)}, ` +
      `${params.add(c.status)}::smallint, ${params.add(c.requests)}::bigint, ${params.add(c.bytes)}::bigint)`,
  )
  await tx.query(
    `insert into gateway_usage (tenant_id, day, cid, file_name, status, requests, bytes) values ${values.join(', ')}
     on conflict (tenant_id, day, cid, file_name, status) do update
     set requests = gateway_usage.requests + excluded.requests, bytes = gateway_usage.bytes + excluded.bytes`,
    params.values,
  )
}

function whereOf(params: Params, tenantId: string, query: GatewayUsageQuery): string {
  const where = [
    `tenant_id = ${params.add(tenantId)}`,
    `day >= ${params.add(query.from)}::date`,
    `day <= ${params.add(query.to)}::date`,
  ]
  if (query.cid !== undefined) where.push(`cid = ${params.add(query.cid)}`)
  if (query.fileName !== undefined) where.push(`file_name = ${params.add(query.fileName)}`)
  return where.join(' and ')
}

const toTotal = (row: Record<string, unknown>): GatewayUsageTotal => ({
  requests: Number(row.requests),
  bytes: Number(row.bytes),
})

async function rankGatewayUsage(
  db: Queryable,
  tenantId: string,
  query: GatewayUsageQuery,
  ranking: GatewayUsageRanking,
): Promise<(GatewayUsageTotal & { value: string })[]> {
  const params = new Params()
  const where = whereOf(params, tenantId, query)
  // column and direction come from closed unions, never from the caller's text
  const column = ranking.by === 'cid' ? 'cid' : 'file_name'
  const direction = ranking.order === 'asc' ? 'asc' : 'desc'
  const sortBy = ranking.sortBy === 'requests' ? 'requests' : 'bytes'
  const { rows } = await db.query(
    `select ${column} as value, sum(requests) as requests, sum(bytes) as bytes from gateway_usage where ${where}
     group by ${column} order by ${sortBy} ${direction}, ${column} collate "C" asc limit ${params.add(ranking.limit)}`,
    params.values,
  )
  return rows.map((row) => ({ value: String(row.value), ...toTotal(row) }))
}

async function gatewayUsageByDay(
  db: Queryable,
  tenantId: string,
  query: GatewayUsageQuery,
): Promise<(GatewayUsageTotal & { day: string })[]> {
  const params = new Params()
  const { rows } = await db.query(
    `select to_char(day, 'YYYY-MM-DD') as day, sum(requests) as requests, sum(bytes) as bytes from gateway_usage
     where ${whereOf(params, tenantId, query)} group by day order by day`,
    params.values,
  )
  return rows.map((row) => ({ day: String(row.day), ...toTotal(row) }))
}

/** The record store's usage part over `client`, each call guarded (see `guarded`). */
export function postgresUsageRecords(client: SqlClient): UsageRecordStore {
  return {
    addGatewayUsage: (counts, { rowsPerTenantDay }, options) =>
      guarded('addGatewayUsage', options, () => addGatewayUsage(client, counts, rowsPerTenantDay)),
    rankGatewayUsage: (tenantId, query, ranking, options) =>
      guarded('rankGatewayUsage', options, () => rankGatewayUsage(client, tenantId, query, ranking)),
    gatewayUsageByDay: (tenantId, query, options) =>
      guarded('gatewayUsageByDay', options, () => gatewayUsageByDay(client, tenantId, query)),
  }
}
