/** A result row as the driver returns it; `rows.ts` turns rows into domain records. */
export type Row = Record<string, unknown>

/** The one capability the store needs from a connection: run a parameterised statement. */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: Row[] }>
}

/** Runs `work` on one connection inside BEGIN … COMMIT, rolling back when `work` throws. */
export interface TransactionRunner {
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
}

/** What `createPostgresRecordStore` and `migrate` take: build one with `fromPgPool` or `fromPGlite`. */
export type SqlClient = Queryable & TransactionRunner

/** The part of `pg.Pool` used here, typed structurally so `pg` stays an optional peer dependency. */
export interface PgPoolLike extends Queryable {
  connect(): Promise<PgPoolClientLike>
}

export interface PgPoolClientLike extends Queryable {
  /** Passing an error tells the pool to discard the connection instead of reusing it. */
  release(err?: Error | boolean): void
}

/** Adapts a `pg.Pool`: plain statements go to any pooled connection, a transaction checks one out. */
export function fromPgPool(pool: PgPoolLike): SqlClient {
  return {
    query: (text, params) => pool.query(text, params),
    async transaction(work) {
      const connection = await pool.connect()
      let unusable: Error | undefined
      try {
        await connection.query('begin')
        const result = await work(connection)
        await connection.query('commit')
        return result
      } catch (err) {
        try {
          await connection.query('rollback')
        } catch (rollbackError) {
          // The connection is broken; `err` already says why. Releasing with the error makes the
          // pool drop the connection rather than hand out one stuck in a failed transaction.
          unusable = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))
        }
        throw err
      } finally {
        connection.release(unusable)
      }
    },
  }
}
