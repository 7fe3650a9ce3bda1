import type { Queryable, SqlClient } from '@pinfold/adapter-postgres'
import { Gauge, Histogram, type Registry } from 'prom-client'

/** The counts a `pg.Pool` keeps (`totalCount`, `idleCount`, `waitingCount`). */
export interface PgPoolStats {
  readonly totalCount: number
  readonly idleCount: number
  readonly waitingCount: number
}

const SQL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * Database metrics at the record store's boundary, the `SqlClient` it is given: the time of each
 * statement and of each whole transaction (no SQL text in labels), and a pool's connections read
 * at scrape time.
 */
export function watchSql(registers: Registry[]) {
  const seconds = new Histogram({
    name: 'pinfold_db_query_duration_seconds',
    help: 'Time of record store statements (kind="statement") and whole transactions (kind="transaction"), by outcome.',
    labelNames: ['kind', 'outcome'] as const,
    buckets: SQL_BUCKETS,
    registers,
  })
  const pools: PgPoolStats[] = []
  new Gauge({
    name: 'pinfold_db_pool_connections',
    help: 'PostgreSQL pool connections (state="total" open, "idle" free) and callers waiting for one (state="waiting").',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.reset()
      for (const pool of pools) {
        this.inc({ state: 'total' }, pool.totalCount)
        this.inc({ state: 'idle' }, pool.idleCount)
        this.inc({ state: 'waiting' }, pool.waitingCount)
      }
    },
  })

  async function timed<T>(kind: 'statement' | 'transaction', run: () => Promise<T>): Promise<T> {
    const end = seconds.startTimer({ kind })
    try {
      const result = await run()
      end({ outcome: 'ok' })
      return result
    } catch (error) {
      end({ outcome: 'error' })
      throw error
    }
  }
  const timedQueryable = (inner: Queryable): Queryable => ({
    query: (text, params) => timed('statement', () => inner.query(text, params)),
  })

  return {
    /** `client`, with each statement and transaction timed. */
    sql(client: SqlClient): SqlClient {
      return {
        ...timedQueryable(client),
        transaction: (work) => timed('transaction', () => client.transaction((tx) => work(timedQueryable(tx)))),
      }
    },
    /** Reads `pool`'s counts at each scrape. */
    pgPool(pool: PgPoolStats): void {
      pools.push(pool)
    },
  }
}
