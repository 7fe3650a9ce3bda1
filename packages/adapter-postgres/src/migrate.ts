import { PinfoldError } from '@pinfold/interface'
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
    const mapped = toPinfoldError(err instanceof MigrationFailure ? err.cause : err, 'migrate')
    if (!(err instanceof MigrationFailure) || mapped.code !== 'INTERNAL') throw mapped
    throw new PinfoldError('INTERNAL', describeFailure(err), { cause: err.cause })
  }
}

/** A statement of one migration failed: which migration, and the database's own error. */
class MigrationFailure extends Error {
  constructor(
    readonly migration: Migration,
    override readonly cause: unknown,
  ) {
    super(`migration ${migration.version} failed`)
  }
}

/**
 * The operator's message: the migration, the database's words (a missing extension, a role that
 * may not create, a library the server failed to load all read differently) and what to do next.
 */
function describeFailure({ migration, cause }: MigrationFailure): string {
  const { message, code, detail, hint } = (typeof cause === 'object' && cause !== null ? cause : {}) as {
    message?: unknown
    code?: unknown
    detail?: unknown
    hint?: unknown
  }
  const said = [
    typeof message === 'string' ? message : String(cause),
    typeof code === 'string' ? `(SQLSTATE ${code})` : '',
    typeof detail === 'string' ? `detail: ${detail}` : '',
    typeof hint === 'string' ? `hint: ${hint}` : '',
  ]
    .filter(Boolean)
    .join(' ')
  return (
    `migration ${migration.version} (${migration.name}) failed: ${said}. Nothing of it was applied. ` +
    "Fix what the database says (the role's rights on the schema, an extension such as pgvector's " +
    '`vector` installed on the server, the server log for a library that failed to load), then start ' +
    'again or run `pinfold migrate`'
  )
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
    try {
      for (const statement of migration.statements) await tx.query(statement)
    } catch (err) {
      throw new MigrationFailure(migration, err)
    }
    await tx.query('insert into pinfold_migrations (version, name) values ($1, $2)', [
      migration.version,
      migration.name,
    ])
    applied.push(migration.version)
  }
  return applied
}
