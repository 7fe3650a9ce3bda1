import type { TenantFilter, TenantRecord, TenantRecordStore, TenantSuspension } from '@pinfold/interface'
import { guarded } from './errors.js'
import { withEvents } from './events.js'
import { fixedStatement } from './fixed-statements.js'
import type { Queryable, Row, SqlClient } from './queryable.js'
import { toDate } from './rows.js'
import { containsIgnoringCase, Params } from './sql.js'

const COLUMNS = 'id, created_at, origin, suspended_at, suspension_reason, hide_content'

function toTenant(row: Row): TenantRecord {
  return {
    id: String(row.id),
    createdAt: toDate(row.created_at),
    origin: row.origin === 'admin' ? 'admin' : 'token',
    suspension:
      row.suspended_at === null
        ? null
        : {
            at: toDate(row.suspended_at),
            reason: String(row.suspension_reason),
            hideContent: row.hide_content === true,
          },
  }
}

/** Inserts unless the id exists (the unique key decides between concurrent registrations), then reads. */
async function registerTenant(
  db: Queryable,
  tenant: TenantRecord,
): Promise<{ tenant: TenantRecord; created: boolean }> {
  const inserted = await db.query(
    `insert into tenants (id, created_at, origin) values ($1, $2, $3) on conflict (id) do nothing returning ${COLUMNS}`,
    [tenant.id, tenant.createdAt.toISOString(), tenant.origin],
  )
  if (inserted.rows[0]) {
    // a record given suspended is stored so (the registry's contract stores what it is given)
    if (tenant.suspension) return { tenant: (await setSuspension(db, tenant.id, tenant.suspension))!, created: true }
    return { tenant: toTenant(inserted.rows[0]), created: true }
  }
  return { tenant: (await getTenant(db, tenant.id))!, created: false }
}

/** Read on a tenant's first request and again when the suspension cache runs out. */
const GET_TENANT = fixedStatement(`select ${COLUMNS} from tenants where id = $1`)

async function getTenant(db: Queryable, id: string): Promise<TenantRecord | undefined> {
  const { rows } = await db.query(GET_TENANT, [id])
  return rows[0] && toTenant(rows[0])
}

async function listTenants(
  db: Queryable,
  filter: TenantFilter,
  page: { offset: number; limit: number },
): Promise<{ items: TenantRecord[]; total: number }> {
  const params = new Params()
  const where = ['true']
  if (filter.search !== undefined) where.push(containsIgnoringCase('id', filter.search, params))
  if (filter.suspended !== undefined) where.push(filter.suspended ? 'suspended_at is not null' : 'suspended_at is null')
  if (filter.hidden === true) where.push('hide_content')
  const conditions = where.join(' and ')
  const filterValues = [...params.values]
  const { rows } = await db.query(
    `select ${COLUMNS}, count(*) over () as total from tenants where ${conditions}
     order by id collate "C" offset ${params.add(page.offset)} limit ${params.add(page.limit)}`,
    params.values,
  )
  if (rows.length > 0 || page.offset === 0) return { items: rows.map(toTenant), total: Number(rows[0]?.total ?? 0) }
  // a page past the end has no row to carry the total
  const counted = await db.query(`select count(*) as total from tenants where ${conditions}`, filterValues)
  return { items: [], total: Number(counted.rows[0]?.total ?? 0) }
}

async function setSuspension(
  db: Queryable,
  id: string,
  suspension: TenantSuspension | null,
): Promise<TenantRecord | undefined> {
  const { rows } = await db.query(
    `update tenants set suspended_at = $2, suspension_reason = $3, hide_content = $4 where id = $1 returning ${COLUMNS}`,
    [id, suspension?.at.toISOString() ?? null, suspension?.reason ?? null, suspension?.hideContent ?? false],
  )
  return rows[0] && toTenant(rows[0])
}

/** The record store's tenants part over `client`, each call guarded (see `guarded`). */
export function postgresTenantRecords(client: SqlClient): TenantRecordStore {
  return {
    registerTenant: (tenant, options) =>
      guarded('registerTenant', options, () =>
        withEvents(
          client,
          options?.events,
          (db) => registerTenant(db, tenant),
          (result) => result.created,
        ),
      ),
    getTenant: (id, options) => guarded('getTenant', options, () => getTenant(client, id)),
    listTenants: (filter, page, options) => guarded('listTenants', options, () => listTenants(client, filter, page)),
    setSuspension: (id, suspension, options) =>
      guarded('setSuspension', options, () =>
        withEvents(client, options?.events, (db) => setSuspension(db, id, suspension), Boolean),
      ),
  }
}
