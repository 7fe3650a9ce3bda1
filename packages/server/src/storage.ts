import { join } from 'node:path'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import type { SqlClient } from '@pinfold/adapter-postgres'
import type { BlobStore, ChangeFeed, RecordStore } from '@pinfold/core'
import type { ServerConfig } from './config.js'
import { lockDataDir } from './data-dir-lock.js'
import { openEmbeddedDatabase } from './embedded-database.js'
import type { PrometheusMetrics } from './metrics/prometheus-metrics.js'

/** What the database reports to, when metrics are on. */
type SqlWatch = Pick<PrometheusMetrics, 'sql' | 'pgPool'> | undefined

export interface Storage {
  records: RecordStore
  blobs: BlobStore
  /**
   * How instances on one PostgreSQL server tell each other what their gateway caches must drop
   * (`LISTEN`/`NOTIFY`); none for memory and the embedded database, which one process owns.
   */
  changes?: ChangeFeed | undefined
  /** Human-readable summary for the start-up log. */
  description: string
  close(): Promise<void>
}

/**
 * Chooses the stores from the configuration:
 * - records: `DATABASE_URL` → PostgreSQL; else `PINFOLD_STORAGE=memory` → memory; else PGlite in
 *   `<data dir>/db` (the embedded default, locked to this process, owner-only like the whole
 *   data directory);
 * - blobs: `PINFOLD_S3_BUCKET` → S3; else memory for `PINFOLD_STORAGE=memory`; else `<data dir>/blobs`.
 * Migrations run before the store is used; every process may run them, they take turns.
 * Drivers are imported only when configured: an app that embeds the HTTP layer does not load the
 * AWS SDK, pg or PGlite's WebAssembly unless it uses them.
 */
export async function openStorage(
  config: ServerConfig,
  watch?: SqlWatch,
  /** The embedded database as a worker of `--workers N` reaches it: through the primary, which owns it. */
  owned?: { sql: SqlClient; changes: ChangeFeed } | undefined,
): Promise<Storage> {
  const closers: (() => Promise<void>)[] = []
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => {})
  }
  try {
    if (!config.databaseUrl && config.storage !== 'memory' && !owned) {
      const lock = await lockDataDir(config.dataDir)
      closers.push(lock.release)
    }
    const records = owned ? await ownedRecords(config, owned, watch) : await openRecords(config, closers, watch)
    const blobs = await openBlobs(config, closers)
    return { ...records, blobs: blobs.store, description: `${records.description}, ${blobs.description}`, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** The primary locked, opened and migrated the database; statements go to it, notices through it. */
async function ownedRecords(config: ServerConfig, owned: { sql: SqlClient; changes: ChangeFeed }, watch: SqlWatch) {
  const { createPostgresRecordStore } = await import('@pinfold/adapter-postgres')
  return {
    records: createPostgresRecordStore({ client: watch ? watch.sql(owned.sql) : owned.sql, vectors: config.vectors }),
    changes: owned.changes,
    description: `records in ${join(config.dataDir, 'db')} (through the primary process)`,
  }
}

/** How long a pooled PostgreSQL connection may sit unused before it is closed. */
const POOL_IDLE_MS = 60_000

async function openRecords(config: ServerConfig, closers: (() => Promise<void>)[], watch: SqlWatch) {
  if (config.databaseUrl) {
    const [{ default: pg }, { createPostgresChangeFeed, createPostgresRecordStore, fromPgPool, migrate }] =
      await Promise.all([import('pg'), import('@pinfold/adapter-postgres')])
    // A connection is closed after a minute unused rather than pg's 10 s: a new one costs a SCRAM
    // handshake (PBKDF2 in this process), a backend start, and preparing its fixed statements again,
    // which a 10 s pause in traffic made every burst pay (`bench/gateway-small.ts`'s API rounds did).
    const pool = new pg.Pool({ connectionString: config.databaseUrl, idleTimeoutMillis: POOL_IDLE_MS })
    // an idle client's connection error must not crash the process; the next query reports it
    pool.on('error', () => {})
    closers.push(() => pool.end())
    watch?.pgPool(pool)
    const client = fromPgPool(pool, { preparedStatements: config.databasePreparedStatements })
    await migrate(client)
    const changes = await createPostgresChangeFeed({
      client: pool,
      connect: async () => {
        const listener = new pg.Client({ connectionString: config.databaseUrl })
        await listener.connect()
        return listener
      },
    })
    closers.push(() => changes.close())
    return {
      records: createPostgresRecordStore({ client: watch ? watch.sql(client) : client, vectors: config.vectors }),
      changes,
      description: 'records in PostgreSQL',
    }
  }
  if (config.storage === 'memory') return { records: createMemoryRecordStore(), description: 'records in memory' }
  const [{ db, path }, { createPostgresRecordStore, fromPGlite, migrate }] = await Promise.all([
    openEmbeddedDatabase(config.dataDir),
    import('@pinfold/adapter-postgres'),
  ])
  closers.push(() => db.close())
  const client = fromPGlite(db)
  await migrate(client)
  return {
    records: createPostgresRecordStore({ client: watch ? watch.sql(client) : client, vectors: config.vectors }),
    description: `records in ${path}`,
  }
}

async function openBlobs(
  config: ServerConfig,
  closers: (() => Promise<void>)[],
): Promise<{ store: BlobStore; description: string }> {
  if (config.s3.bucket) {
    const [{ S3Client }, { createS3BlobStore }] = await Promise.all([
      import('@aws-sdk/client-s3'),
      import('@pinfold/adapter-s3'),
    ])
    const client = new S3Client({
      region: config.s3.region ?? 'us-east-1',
      ...(config.s3.endpoint && { endpoint: config.s3.endpoint }),
      forcePathStyle: config.s3.forcePathStyle,
      // plain bodies: S3-compatible servers that do not speak aws-chunked would store the framing
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
    closers.push(async () => client.destroy())
    return {
      store: createS3BlobStore({ client, bucket: config.s3.bucket, prefix: config.s3.prefix }),
      description: `blobs in s3://${config.s3.bucket}/${config.s3.prefix ?? ''}`,
    }
  }
  if (config.storage === 'memory') return { store: createMemoryBlobStore(), description: 'blobs in memory' }
  const { createFsBlobStore } = await import('@pinfold/adapter-fs')
  const directory = join(config.dataDir, 'blobs')
  return { store: createFsBlobStore({ directory }), description: `blobs in ${directory}` }
}
