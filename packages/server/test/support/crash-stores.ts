import { join } from 'node:path'
import { createFsBlobStore, type FsBlobStore } from '@pinfold/adapter-fs'
import { createPostgresRecordStore, fromPGlite, fromPgPool, migrate, type Queryable } from '@pinfold/adapter-postgres'
import type { RecordStore } from '@pinfold/core'
import type { ServerConfig } from '../../src/config.js'
import { lockDataDir } from '../../src/data-dir-lock.js'
import { openEmbeddedDatabase } from '../../src/embedded-database.js'

/** A data directory's stores opened as `pinfold serve` opens them, plus SQL on its records. */
export interface InspectableStores {
  records: RecordStore
  blobs: FsBlobStore
  /** Plain SQL on the record store's database: what the records own, seen without the port. */
  sql: Queryable
  close(): Promise<void>
}

/**
 * Opens the stores of `config` (filesystem blobs; records in the embedded PGlite of the data
 * directory, under its lock, or in `DATABASE_URL`) the way `openStorage` (src/storage.ts) does, but
 * keeps the SQL client, which the server hides. Opening takes a lock a killed process left over and
 * lets the database recover from the crash: it is the restart.
 */
export async function openInspectableStores(config: ServerConfig): Promise<InspectableStores> {
  const blobs = createFsBlobStore({ directory: join(config.dataDir, 'blobs') })
  if (config.databaseUrl) {
    const { default: pg } = await import('pg')
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4 })
    pool.on('error', () => {})
    const client = fromPgPool(pool)
    await migrate(client)
    return {
      records: createPostgresRecordStore({ client, vectors: config.vectors }),
      blobs,
      sql: client,
      close: () => pool.end(),
    }
  }
  const lock = await lockDataDir(config.dataDir)
  try {
    const { db } = await openEmbeddedDatabase(config.dataDir)
    const client = fromPGlite(db)
    await migrate(client)
    return {
      records: createPostgresRecordStore({ client, vectors: config.vectors }),
      blobs,
      sql: client,
      async close() {
        await db.close()
        await lock.release()
      },
    }
  } catch (error) {
    await lock.release()
    throw error
  }
}
