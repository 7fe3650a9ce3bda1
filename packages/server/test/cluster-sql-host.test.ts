import { PGlite } from '@electric-sql/pglite'
import { fromPGlite } from '@pinfold/adapter-postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deserializeError, serializeError } from '../src/cluster/messages.js'
import { createSqlHost } from '../src/cluster/sql-host.js'

/**
 * The primary's side of the embedded database for `--workers N`, on a real PGlite (in memory):
 * what the workers' transactions do to it when they commit, roll back, or die half-way.
 */
describe('cluster SQL host (the embedded database shared by workers)', () => {
  let db: PGlite
  let host: ReturnType<typeof createSqlHost>
  beforeAll(async () => {
    db = await PGlite.create()
    await db.query('create table t (id int primary key, v text)')
    host = createSqlHost(fromPGlite(db))
  }, 120_000)
  afterAll(() => db.close())

  const values = async () => (await db.query<{ v: string }>('select v from t order by id')).rows.map((r) => r.v)

  it('transactions - a commit keeps the rows, a rollback and a dead worker leave none, and the database is free after', async () => {
    const committed = await host.begin(1)
    await host.query('insert into t values (1, $1)', ['kept'], committed)
    await host.end(committed, true)

    const rolledBack = await host.begin(1)
    await host.query('insert into t values (2, $1)', ['rolled back'], rolledBack)
    await host.end(rolledBack, false)

    // worker 2 dies inside its transaction: a statement from anyone else waits for it until then
    const orphan = await host.begin(2)
    await host.query('insert into t values (3, $1)', ['orphan'], orphan)
    const waiting = host.query('select count(*)::int as n from t', undefined, undefined)
    host.workerGone(2)
    expect((await waiting).rows).toEqual([{ n: 1 }])
    await expect(host.query('select 1', undefined, orphan)).rejects.toThrow('the transaction is over')
    expect(await values()).toEqual(['kept'])

    // worker 3 dies with its BEGIN still on the way: the transaction, once started, is let go at once
    const late = host.begin(3)
    host.workerGone(3)
    await expect(late).rejects.toThrow('the worker is gone')
    expect((await host.query('select count(*)::int as n from t', undefined, undefined)).rows).toEqual([{ n: 1 }])
  })

  it('errors - a failed COMMIT reaches the worker with its SQLSTATE, as the record store maps it', async () => {
    const tx = await host.begin(1)
    const duplicate = await host.query('insert into t values (1, $1)', ['again'], tx).catch((error: unknown) => error)
    const received = deserializeError(structuredClone(serializeError(duplicate)))
    expect(received).toMatchObject({ code: '23505', constraint: 't_pkey' })
    expect(received).toBeInstanceOf(Error)
    // the transaction is aborted: ending it rolls back (PGlite's transaction reports the failure)
    await host.end(tx, false)
    expect(await values()).toEqual(['kept'])
  })
})
