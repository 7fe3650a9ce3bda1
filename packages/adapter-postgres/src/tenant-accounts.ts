import {
  type CallOptions,
  type FileQuota,
  type FileRecord,
  type KeptTenantUsage,
  PinfoldError,
  type RequestCountIncrement,
  type RequestCountTotals,
  type TenantAccountRecordStore,
  type TenantLimitOverrides,
} from '@pinfold/interface'
import { guarded } from './errors.js'
import { withEvents } from './events.js'
import { fixedStatement } from './fixed-statements.js'
import type { Queryable, SqlClient } from './queryable.js'

/*
 * The kept figures move inside the transaction of the file row they count (files.ts calls
 * `accountFileAdded` / `accountFileRemoved`), after that transaction locked the content's row:
 * holder counts of one content therefore change one transaction at a time. Tenant rows are then
 * updated in the order of their ids, so two transactions that each touch two tenants (a content
 * becoming shared while another stops being shared) never wait on each other in a cycle. A
 * tenant's quota is checked on its own row after the update, which holds that row's lock until
 * commit: concurrent creates of one tenant are judged one after the other, each on the figures
 * the earlier ones committed.
 */

type Delta = Partial<Record<keyof KeptTenantUsage, number>>

const COLUMN: Record<keyof KeptTenantUsage, string> = {
  files: 'files',
  logicalBytes: 'logical_bytes',
  contents: 'contents',
  soleBytes: 'sole_bytes',
  sharedBytes: 'shared_bytes',
}

async function applyDeltas(tx: Queryable, deltas: Map<string, Delta>): Promise<Map<string, KeptTenantUsage>> {
  const after = new Map<string, KeptTenantUsage>()
  for (const tenantId of [...deltas.keys()].sort()) {
    const delta = deltas.get(tenantId)!
    const names = Object.keys(COLUMN) as (keyof KeptTenantUsage)[]
    const values = names.map((name) => delta[name] ?? 0)
    const { rows } = await tx.query(
      `insert into tenant_usage (tenant_id, ${names.map((n) => COLUMN[n]).join(', ')})
       values ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')})
       on conflict (tenant_id) do update set ${names
         .map((n) => `${COLUMN[n]} = tenant_usage.${COLUMN[n]} + excluded.${COLUMN[n]}`)
         .join(', ')}
       returning files, logical_bytes`,
      [tenantId, ...values],
    )
    after.set(tenantId, toKept(rows[0]!))
  }
  return after
}

function add(deltas: Map<string, Delta>, tenantId: string, delta: Delta) {
  const into = deltas.get(tenantId) ?? {}
  for (const [name, value] of Object.entries(delta) as [keyof KeptTenantUsage, number][]) {
    into[name] = (into[name] ?? 0) + value
  }
  deltas.set(tenantId, into)
}

/**
 * Counts a file just inserted (its content's row locked by the caller); throws `QUOTA_EXCEEDED`
 * when its tenant is then past `quota`, which rolls the caller's transaction back.
 */
export async function accountFileAdded(tx: Queryable, file: FileRecord, quota: FileQuota | undefined): Promise<void> {
  const deltas = new Map<string, Delta>()
  add(deltas, file.tenantId, { files: 1, logicalBytes: file.size })
  const held = await tx.query(
    `insert into content_holders (cid, tenant_id, files) values ($1, $2, 1)
     on conflict (cid, tenant_id) do update set files = content_holders.files + 1 returning files`,
    [file.cid, file.tenantId],
  )
  if (Number(held.rows[0]!.files) === 1) {
    const { rows } = await tx.query(
      'update contents set holders = holders + 1 where cid = $1 returning holders, size',
      [file.cid],
    )
    const holders = Number(rows[0]!.holders)
    const size = Number(rows[0]!.size)
    add(deltas, file.tenantId, holders === 1 ? { contents: 1, soleBytes: size } : { contents: 1, sharedBytes: size })
    if (holders === 2) {
      const first = await otherHolder(tx, file)
      if (first !== undefined) add(deltas, first, { soleBytes: -size, sharedBytes: size })
    }
  }
  const mine = (await applyDeltas(tx, deltas)).get(file.tenantId)!
  if (quota?.maxFiles !== undefined && mine.files > quota.maxFiles) {
    throw new PinfoldError('QUOTA_EXCEEDED', `file limit reached: the account may hold ${quota.maxFiles} files`)
  }
  if (quota?.maxLogicalBytes !== undefined && mine.logicalBytes > quota.maxLogicalBytes) {
    throw new PinfoldError(
      'QUOTA_EXCEEDED',
      `storage limit reached: the account may store ${quota.maxLogicalBytes} bytes`,
    )
  }
}

/** Uncounts a file just deleted, before its content's row may be deleted (the caller locked it). */
export async function accountFileRemoved(tx: Queryable, file: FileRecord): Promise<void> {
  const deltas = new Map<string, Delta>()
  add(deltas, file.tenantId, { files: -1, logicalBytes: -file.size })
  const held = await tx.query(
    'update content_holders set files = files - 1 where cid = $1 and tenant_id = $2 returning files',
    [file.cid, file.tenantId],
  )
  if (held.rows[0] && Number(held.rows[0].files) === 0) {
    await tx.query('delete from content_holders where cid = $1 and tenant_id = $2', [file.cid, file.tenantId])
    const { rows } = await tx.query(
      'update contents set holders = holders - 1 where cid = $1 returning holders, size',
      [file.cid],
    )
    if (rows[0]) {
      const left = Number(rows[0].holders)
      const size = Number(rows[0].size)
      add(deltas, file.tenantId, left === 0 ? { contents: -1, soleBytes: -size } : { contents: -1, sharedBytes: -size })
      if (left === 1) {
        const last = await otherHolder(tx, file)
        if (last !== undefined) add(deltas, last, { sharedBytes: -size, soleBytes: size })
      }
    }
  }
  await applyDeltas(tx, deltas)
}

async function otherHolder(tx: Queryable, file: FileRecord): Promise<string | undefined> {
  const { rows } = await tx.query('select tenant_id from content_holders where cid = $1 and tenant_id <> $2 limit 1', [
    file.cid,
    file.tenantId,
  ])
  return rows[0]?.tenant_id as string | undefined
}

function toKept(row: Record<string, unknown>): KeptTenantUsage {
  return {
    files: Number(row.files ?? 0),
    logicalBytes: Number(row.logical_bytes ?? 0),
    contents: Number(row.contents ?? 0),
    soleBytes: Number(row.sole_bytes ?? 0),
    sharedBytes: Number(row.shared_bytes ?? 0),
  }
}

async function keptUsage(db: Queryable, tenantId: string): Promise<KeptTenantUsage> {
  const { rows } = await db.query(
    'select files, logical_bytes, contents, sole_bytes, shared_bytes from tenant_usage where tenant_id = $1',
    [tenantId],
  )
  return toKept(rows[0] ?? {})
}

async function vectorizedFiles(db: Queryable, tenantId: string): Promise<number> {
  const { rows } = await db.query('select count(*)::int as n from files where tenant_id = $1 and vectorized', [
    tenantId,
  ])
  return Number(rows[0]?.n ?? 0)
}

/** Read for each tenant every few seconds by the request-rate limit. */
const GET_LIMITS = fixedStatement('select limits from tenant_limits where tenant_id = $1')

async function getLimits(db: Queryable, tenantId: string): Promise<TenantLimitOverrides> {
  const { rows } = await db.query(GET_LIMITS, [tenantId])
  return (rows[0]?.limits as TenantLimitOverrides | undefined) ?? {}
}

async function setLimits(db: Queryable, tenantId: string, given: TenantLimitOverrides): Promise<TenantLimitOverrides> {
  const stored = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined))
  if (Object.keys(stored).length === 0) {
    await db.query('delete from tenant_limits where tenant_id = $1', [tenantId])
    return {}
  }
  await db.query(
    `insert into tenant_limits (tenant_id, limits) values ($1, $2::jsonb)
     on conflict (tenant_id) do update set limits = excluded.limits`,
    [tenantId, JSON.stringify(stored)],
  )
  return stored
}

/**
 * The increments in one statement (one upsert per tenant and window, each atomic), then the totals
 * around `window` of every tenant named: two statements a flush, whatever the number of tenants.
 */
async function addRequestCounts(
  db: Queryable,
  increments: readonly RequestCountIncrement[],
  window: number,
): Promise<Map<string, RequestCountTotals>> {
  const adding = increments.filter((i) => i.count > 0)
  if (adding.length > 0) {
    await db.query(
      `insert into tenant_request_counts (tenant_id, window_start, count)
       select * from unnest($1::text[], $2::bigint[], $3::bigint[])
       on conflict (tenant_id, window_start) do update set count = tenant_request_counts.count + excluded.count`,
      [adding.map((i) => i.tenantId), adding.map((i) => i.window), adding.map((i) => i.count)],
    )
  }
  const tenants = [...new Set(increments.map((i) => i.tenantId))]
  const totals = new Map<string, RequestCountTotals>(tenants.map((id) => [id, { current: 0, previous: 0 }]))
  if (tenants.length === 0) return totals
  const { rows } = await db.query(
    `select tenant_id, window_start, count from tenant_request_counts
     where tenant_id = any($1::text[]) and window_start in ($2::bigint, $2::bigint - 1)`,
    [tenants, window],
  )
  for (const row of rows) {
    const into = totals.get(String(row.tenant_id))!
    if (Number(row.window_start) === window) into.current = Number(row.count)
    else into.previous = Number(row.count)
  }
  return totals
}

async function dropRequestCountsBefore(db: Queryable, window: number): Promise<void> {
  await db.query('delete from tenant_request_counts where window_start < $1::bigint', [window])
}

/** The record store's tenant accounts part over `client`, each call guarded (see `guarded`). */
export function postgresTenantAccounts(client: SqlClient): TenantAccountRecordStore {
  return {
    keptUsage: (tenantId, options?: CallOptions) => guarded('keptUsage', options, () => keptUsage(client, tenantId)),
    vectorizedFiles: (tenantId, options) =>
      guarded('vectorizedFiles', options, () => vectorizedFiles(client, tenantId)),
    getLimits: (tenantId, options) => guarded('getLimits', options, () => getLimits(client, tenantId)),
    setLimits: (tenantId, limits, options) =>
      guarded('setLimits', options, () =>
        withEvents(
          client,
          options?.events,
          (db) => setLimits(db, tenantId, limits),
          () => true,
        ),
      ),
    addRequestCounts: (increments, window, options) =>
      guarded('addRequestCounts', options, () => addRequestCounts(client, increments, window)),
    dropRequestCountsBefore: (window, options) =>
      guarded('dropRequestCountsBefore', options, () => dropRequestCountsBefore(client, window)),
  }
}
