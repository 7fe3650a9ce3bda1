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
}

export async function pgliteSchema(): Promise<{ client: SqlClient; drop(): Promise<void> }> {
  const db = await sharedPGlite()
  const schema = freshSchemaName()
  await db.exec(`create schema ${schema}; set search_path to ${schema}`)
  return { client: fromPGlite(db), drop: async () => void (await db.exec(`drop schema ${schema} cascade`)) }
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
