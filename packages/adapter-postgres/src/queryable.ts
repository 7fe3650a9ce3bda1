import { fixedStatementName } from './fixed-statements.js'

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

/** A named statement as `pg` takes it: prepared on each connection the first time, then executed. */
export interface PgNamedQuery {
  name: string
  text: string
  values: unknown[] | undefined
}

/** What `fromPgPool` sends a connection: a plain statement, or a fixed one by name. */
export interface PgQueryable {
  query(statement: string | PgNamedQuery, params?: unknown[]): Promise<{ rows: Row[] }>
}

/** The part of `pg.Pool` used here, typed structurally so `pg` stays an optional peer dependency. */
export interface PgPoolLike extends PgQueryable {
  connect(): Promise<PgPoolClientLike>
}

export interface PgPoolClientLike extends PgQueryable {
  /** Passing an error tells the pool to discard the connection instead of reusing it. */
  release(err?: Error | boolean): void
}

export interface PgPoolOptions {
  /**
   * Run fixed statements (`fixed-statements.ts`: the adapter's hot lookups) as named prepared
   * statements, parsed and planned once per connection. Default true. Turn it off behind a pooler
   * that hands one session's statements to another (PgBouncer before 1.21 in transaction mode).
   */
  preparedStatements?: boolean | undefined
}

/**
 * Adapts a `pg.Pool`: plain statements go to any pooled connection, a transaction checks one out.
 * A fixed statement goes by its name (see `fixedStatement`), any other text as it is.
 */
export function fromPgPool(pool: PgPoolLike, options: PgPoolOptions = {}): SqlClient {
  const prepared = options.preparedStatements ?? true
  const on = (target: PgQueryable): Queryable => ({
    query(text, params) {
      const name = prepared ? fixedStatementName(text) : undefined
      return name === undefined ? target.query(text, params) : target.query({ name, text, values: params })
    },
  })
  const plain = on(pool)
  return {
    query: plain.query,
    async transaction(work) {
      const connection = await pool.connect()
      let unusable: Error | undefined
      try {
        await connection.query('begin')
        const result = await work(on(connection))
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
