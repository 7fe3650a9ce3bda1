import type { ServerConfig } from './config.js'
import { lockDataDir } from './data-dir-lock.js'
import { openEmbeddedDatabase } from './embedded-database.js'

/** Called before each migration (`applying`), then once it applied or was found applied already (`skipped`). */
export type MigrationProgress = (event: {
  version: number
  name: string
  state: 'applying' | 'applied' | 'skipped'
}) => void

/**
 * `pinfold migrate`: brings the schema of `DATABASE_URL` (or of the embedded PGlite in the data
 * directory) up to date, one migration at a time so each can be reported as it applies. Returns the
 * versions applied. Safe while servers run against PostgreSQL (migrations take an advisory lock);
 * the embedded database is locked to one process, so stop `pinfold serve` first.
 */
export async function runMigrations(config: ServerConfig, progress: MigrationProgress = () => {}): Promise<number[]> {
  const { MIGRATIONS, migrate, fromPgPool, fromPGlite } = await import('@pinfold/adapter-postgres')
  const closers: (() => Promise<void>)[] = []
  try {
    let client: Parameters<typeof migrate>[0]
    if (config.databaseUrl) {
      const { default: pg } = await import('pg')
      const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 1 })
      pool.on('error', () => {})
      closers.push(() => pool.end())
      client = fromPgPool(pool)
    } else {
      const lock = await lockDataDir(config.dataDir)
      closers.push(lock.release)
      const { db } = await openEmbeddedDatabase(config.dataDir)
      closers.push(() => db.close())
      client = fromPGlite(db)
    }
    const ordered = [...MIGRATIONS].sort((a, b) => a.version - b.version)
    const applied: number[] = []
    for (const [index, migration] of ordered.entries()) {
      progress({ version: migration.version, name: migration.name, state: 'applying' })
      // everything up to this one: earlier versions are already in place, so at most this one applies
      const now = await migrate(client, ordered.slice(0, index + 1))
      applied.push(...now)
      const state = now.includes(migration.version) ? 'applied' : 'skipped'
      progress({ version: migration.version, name: migration.name, state })
    }
    return applied
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {})
  }
}
