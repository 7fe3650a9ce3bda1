import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixedStatement } from '../src/fixed-statements.js'
import { fromPgPool, type PgPoolOptions } from '../src/index.js'
import { freshSchemaName, TEST_DATABASE_URL } from './targets.js'

const LOOKUP = fixedStatement('select id, name, at, kv from fixed_probe where id = $1')
/** The same statement, not registered: run as a plain (unnamed) statement. */
const PLAIN_LOOKUP = 'select id, name, at, kv from fixed_probe where id = $1 '
const LATE = fixedStatement('select id from fixed_late where id = $1')

describe.runIf(TEST_DATABASE_URL)('fixed statements on a PostgreSQL server (TEST_DATABASE_URL)', () => {
  const schema = freshSchemaName()
  const pools: pg.Pool[] = []
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })

  /** One connection, so what it prepared can be read back from it. */
  function oneConnection(options?: PgPoolOptions) {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}`, max: 1 })
    pools.push(pool)
    const prepared = async () =>
      (
        await pool.query<{ statement: string; executions: number }>(
          'select statement, (generic_plans + custom_plans)::int as executions from pg_prepared_statements',
        )
      ).rows
    return { client: fromPgPool(pool, options), prepared }
  }

  beforeAll(async () => {
    await admin.connect()
    await admin.query(`create schema ${schema}`)
    await admin.query(`create table ${schema}.fixed_probe (id int primary key, name text, at timestamptz, kv jsonb)`)
    await admin.query(
      `insert into ${schema}.fixed_probe values (1, 'one', '2026-01-02T03:04:05Z', '{"a":1}'), (2, 'two', null, '{}')`,
    )
  })

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()))
    await admin.query(`drop schema ${schema} cascade`)
    await admin.end()
  })

  it('a fixed statement is prepared once per connection, then only executed, answering as a plain one does', async () => {
    const { client, prepared } = oneConnection()
    const first = await client.query(LOOKUP, [1])
    const again = await client.query(LOOKUP, [1])
    const plain = await client.query(PLAIN_LOOKUP, [1])
    expect(first.rows).toEqual([{ id: 1, name: 'one', at: new Date('2026-01-02T03:04:05Z'), kv: { a: 1 } }])
    expect(again.rows).toEqual(first.rows)
    expect(plain.rows).toEqual(first.rows)
    // inside a transaction too, on the connection it checked out
    expect((await client.transaction((tx) => tx.query(LOOKUP, [2]))).rows).toEqual([
      { id: 2, name: 'two', at: null, kv: {} },
    ])
    // the plain text was never prepared; the fixed one once, and executed three times
    expect(await prepared()).toEqual([{ statement: LOOKUP, executions: 3 }])
  })

  it('with preparedStatements off, nothing is prepared (for a pooler that moves sessions)', async () => {
    const { client, prepared } = oneConnection({ preparedStatements: false })
    expect((await client.query(LOOKUP, [1])).rows).toHaveLength(1)
    expect((await client.transaction((tx) => tx.query(LOOKUP, [2]))).rows).toHaveLength(1)
    expect(await prepared()).toEqual([])
  })

  it('a fixed statement that fails to prepare fails as a plain one, and works on that connection once it can', async () => {
    const { client, prepared } = oneConnection()
    await expect(client.query(LATE, [1])).rejects.toMatchObject({ code: '42P01' })
    await admin.query(`create table ${schema}.fixed_late (id int primary key)`)
    await admin.query(`insert into ${schema}.fixed_late values (1)`)
    expect((await client.query(LATE, [1])).rows).toEqual([{ id: 1 }])
    expect(await prepared()).toEqual([{ statement: LATE, executions: 1 }])
  })
})
