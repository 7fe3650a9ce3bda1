/**
 * Pinfold's RecordStore on PostgreSQL: a server through `pg`, or PGlite in-process. Run `migrate`
 * once at start-up (every process may; they take turns), then create the store.
 *
 * ```ts
 * import { PGlite } from '@electric-sql/pglite'
 * import { createPostgresRecordStore, fromPGlite, migrate } from '@pinfold/adapter-postgres'
 *
 * const client = fromPGlite(await PGlite.create()) // or fromPgPool(new pg.Pool({ connectionString }))
 * await migrate(client)
 * const records = createPostgresRecordStore({ client })
 * console.log(await records.files.getContent('bafkreiexample')) // undefined
 * ```
 */

export {
  CHANGE_CHANNEL,
  changeChannelOf,
  createPostgresChangeFeed,
  type NotificationConnection,
  type PostgresChangeFeed,
  type PostgresChangeFeedOptions,
} from './change-feed.js'
export { migrate } from './migrate.js'
export { MIGRATIONS, type Migration } from './migrations/index.js'
export { fromPGlite, type PGliteLike } from './pglite-statements.js'
export { createPostgresRecordStore, type PostgresRecordStoreOptions } from './postgres-record-store.js'
export {
  fromPgPool,
  type PgNamedQuery,
  type PgPoolClientLike,
  type PgPoolLike,
  type PgPoolOptions,
  type PgQueryable,
  type Queryable,
  type Row,
  type SqlClient,
  type TransactionRunner,
} from './queryable.js'
export { enableVectors, HNSW_MAX_DIMENSIONS, type PostgresVectorOptions } from './vectors.js'
