import type { DeploymentTotalsRecordStore, PinRequestState, PinStateTotal } from '@pinfold/interface'
import { guarded } from './errors.js'
import type { Queryable, SqlClient } from './queryable.js'

const PIN_STATES: readonly PinRequestState[] = ['queued', 'retrieving', 'pinned', 'failed']

/**
 * Whole-table aggregates (each a sequential or index-only scan; the caller bounds how often).
 * One statement, so the figures are of one snapshot.
 */
async function storedTotals(db: Queryable) {
  const { rows } = await db.query(
    `select (select count(*) from files) as files,
            (select coalesce(sum(size), 0) from files) as logical_bytes,
            (select count(*) from contents) as contents,
            (select coalesce(sum(size), 0) from contents) as physical_bytes,
            (select count(*) from blocks) as blocks`,
  )
  const row = rows[0] ?? {}
  return {
    files: Number(row.files ?? 0),
    logicalBytes: Number(row.logical_bytes ?? 0),
    contents: Number(row.contents ?? 0),
    physicalBytes: Number(row.physical_bytes ?? 0),
    blocks: Number(row.blocks ?? 0),
  }
}

async function pinStateTotals(db: Queryable): Promise<PinStateTotal[]> {
  const { rows } = await db.query(
    'select state, count(*) as count, min(created_at) as oldest from pin_requests group by state',
  )
  const found = new Map(rows.map((row) => [row.state as string, row]))
  return PIN_STATES.map((state) => {
    const row = found.get(state)
    return {
      state,
      count: Number(row?.count ?? 0),
      oldestCreatedAt: row?.oldest ? new Date(row.oldest as string | Date) : undefined,
    }
  })
}

/** The record store's deployment totals over `client`, each call guarded (see `guarded`). */
export function postgresDeploymentTotals(client: SqlClient): DeploymentTotalsRecordStore {
  return {
    storedTotals: (options) => guarded('storedTotals', options, () => storedTotals(client)),
    pinStateTotals: (options) => guarded('pinStateTotals', options, () => pinStateTotals(client)),
  }
}
