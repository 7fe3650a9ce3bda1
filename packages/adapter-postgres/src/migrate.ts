import { toPinfoldError } from './errors.js'
import { MIGRATIONS, type Migration } from './migrations/index.js'
import type { Queryable, SqlClient } from './queryable.js'

/**
 * Brings the schema in the current `search_path` up to date and records each applied version in
 * `pinfold_migrations`. Safe to call from every process at start-up: the first one migrates while
 * the others wait on an advisory lock, then find nothing left to do. Returns the versions applied.
 */
export async function migrate(client: SqlClient, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  try {
    return await client.transaction((tx) => applyPending(tx, migrations))
  } catch (err) {
    throw toPinfoldError(err, 'migrate')
  }
}

async function applyPending(tx: Queryable, migrations: readonly Migration[]): Promise<number[]> {
  // Transaction-scoped, so the lock cannot outlive a crashed migration. Keyed by schema, so
  // deployments sharing a database in separate schemas do not wait for each other.
  await tx.query(`select pg_advisory_xact_lock(hashtext('pinfold_migrations:' || current_schema()))`)
  await tx.query(`create table if not exists pinfold_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`)
  const { rows } = await tx.query('select version from pinfold_migrations')
  const done = new Set(rows.map((row) => Number(row.version)))
  const applied: number[] = []
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue
    for (const statement of migration.statements) await tx.query(statement)
    await tx.query('insert into pinfold_migrations (version, name) values ($1, $2)', [
      migration.version,
      migration.name,
    ])
    applied.push(migration.version)
  }
  return applied
}
