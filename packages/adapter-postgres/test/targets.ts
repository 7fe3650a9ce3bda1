import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import type { RecordProbe, RecordStoreHarness } from '@pinfold/conformance'
import pg from 'pg'
import {
  createPostgresRecordStore,
  fromPGlite,
  fromPgPool,
  migrate,
  type Queryable,
  type SqlClient,
} from '../src/index.js'

/** Set by CI (and by hand) to run every suite against a real PostgreSQL server too. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL

/**
 * Set by CI, which builds pgvector into its server (scripts/install-pgvector.sh): a server without
 * it then fails the suites instead of reporting the vector tests as skipped.
 */
const PGVECTOR_REQUIRED = process.env.PINFOLD_TEST_PGVECTOR === 'required'

/** A throwaway schema name; tests isolate themselves by schema rather than by database. */
export const freshSchemaName = () => `pinfold_test_${randomUUID().replaceAll('-', '')}`

/** Counts rows behind the adapter's back, to prove what persisted. */
export function countingProbe(db: Queryable): RecordProbe {
  const count = async (table: string) => Number((await db.query(`select count(*) as n from ${table}`)).rows[0]?.n)
  return {
    countContents: () => count('contents'),
    countFiles: () => count('files'),
    countVectors: () => count('file_vectors'),
  }
}

let pglite: Promise<PGlite> | undefined

/**
 * One in-memory PGlite per test file (creating one runs initdb, which takes seconds), loaded with
 * pgvector as the embedded deployment is. Tests in a file run one after another, so switching the
 * single connection's search_path to a fresh schema gives each its own empty database.
 */
export function sharedPGlite(): Promise<PGlite> {
  pglite ??= PGlite.create({ extensions: { vector } })
  return pglite
}

export async function closeSharedPGlite(): Promise<void> {
  await (await pglite)?.close()
  pglite = undefined
  migrated = undefined
}

export async function pgliteSchema(): Promise<{ client: SqlClient; drop(): Promise<void> }> {
  const db = await sharedPGlite()
  const schema = freshSchemaName()
  await db.exec(`create schema ${schema}; set search_path to ${schema}`)
  return { client: fromPGlite(db), drop: async () => void (await db.exec(`drop schema ${schema} cascade`)) }
}

/** The shared PGlite's migrated schema, and the indexes its migrations made. */
let migrated: Promise<{ schema: string; indexes: Set<string> }> | undefined

const indexesOf = async (db: PGlite, schema: string) =>
  new Set(
    (
      await db.query<{ name: string }>(`select indexname as name from pg_indexes where schemaname = $1`, [schema])
    ).rows.map((row) => row.name),
  )

/**
 * An empty, migrated schema on the shared PGlite, for the suites that need a fresh store per test
 * (the record-store and vector conformance): the file migrates one schema once, and each call puts
 * it back to what the migrations made (tables emptied, identities restarted, indexes a store made
 * since dropped: the vector index is made for the first embedder's dimensions) instead of migrating
 * a new schema, which took most of each test's time.
 */
export async function migratedPGliteSchema(): Promise<{ client: SqlClient; drop(): Promise<void> }> {
  const db = await sharedPGlite()
  const client = fromPGlite(db)
  migrated ??= (async () => {
    const schema = freshSchemaName()
    await db.exec(`create schema ${schema}; set search_path to ${schema}`)
    await migrate(client)
    return { schema, indexes: await indexesOf(db, schema) }
  })()
  const { schema, indexes } = await migrated
  await db.exec(`set search_path to ${schema}`)
  for (const index of await indexesOf(db, schema)) if (!indexes.has(index)) await db.exec(`drop index "${index}"`)
  const { rows } = await db.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = $1 and tablename <> 'pinfold_migrations'`,
    [schema],
  )
  if (rows.length > 0)
    await db.exec(`truncate ${rows.map((row) => `"${row.name}"`).join(', ')} restart identity cascade`)
  return { client, drop: async () => {} }
}

/** A pool whose connections all use `schema` on the server at `url`. */
export function serverPool(url: string, schema: string): { client: SqlClient; end(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 10 })
  return { client: fromPgPool(pool), end: () => pool.end() }
}

/** A fresh schema on the server at `url` and a pool using it; `drop` removes both. */
export async function serverSchema(url: string): Promise<{ client: SqlClient; schema: string; drop(): Promise<void> }> {
  const schema = freshSchemaName()
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`create schema ${schema}`)
  } finally {
    await admin.end()
  }
  const { client, end } = serverPool(url, schema)
  return {
    client,
    schema,
    async drop() {
      await client.query(`drop schema ${schema} cascade`)
      await end()
    },
  }
}

/** Turns a schema factory into a conformance harness: migrated, empty store plus a raw probe. */
export async function harness(schema: { client: SqlClient; drop(): Promise<void> }): Promise<RecordStoreHarness> {
  await migrate(schema.client)
  // migration 0006 creates the vector tables only where pgvector is available
  const vectors = await schema.client.query(`select to_regclass('file_vectors') is not null as ready`)
  if (PGVECTOR_REQUIRED && vectors.rows[0]?.ready !== true)
    throw new Error('PINFOLD_TEST_PGVECTOR=required, but this PostgreSQL has no pgvector (scripts/install-pgvector.sh)')
  return {
    store: createPostgresRecordStore({ client: schema.client }),
    probe: countingProbe(schema.client),
    close: schema.drop,
    capabilities: { vectors: vectors.rows[0]?.ready === true },
  }
}
