import type { Queryable, SqlClient } from '@pinfold/adapter-postgres'

/** A worker's transaction, held open on the embedded database until the worker ends it. */
interface OpenTransaction {
  owner: number
  tx: Queryable
  finish(commit: boolean): void
}

/** Rolls back a transaction its worker ended without committing (or died in): not a database error. */
const ROLLBACK = Symbol('rollback')

/**
 * The primary's side of the embedded database for the workers of `--workers N`: PGlite has one
 * connection and belongs to one process, so the workers' statements come here over IPC and run on
 * it, interleaved as PGlite interleaves the statements of concurrent callers in one process. A
 * worker's transaction holds PGlite's transaction until the worker ends it, and is rolled back if
 * the worker dies first, so a crash never leaves the database locked.
 */
export function createSqlHost(db: SqlClient) {
  const open = new Map<number, OpenTransaction>()
  // workers that exited: a BEGIN of theirs still on its way must not hold the database for ever
  const gone = new Set<number>()
  // what COMMIT (or ROLLBACK) came to, for the `end` request that asked for it
  const outcomes = new Map<number, (error: unknown) => void>()
  let nextTx = 1

  const settle = (id: number, error: unknown) => {
    outcomes.get(id)?.(error)
    outcomes.delete(id)
  }

  return {
    query(text: string, params: unknown[] | undefined, tx: number | undefined): Promise<{ rows: unknown[] }> {
      if (tx === undefined) return db.query(text, params)
      const held = open.get(tx)
      return held ? held.tx.query(text, params) : Promise.reject(new Error('the transaction is over'))
    },

    begin(owner: number): Promise<number> {
      const id = nextTx++
      let started = false
      return new Promise<number>((resolve, reject) => {
        db.transaction(
          (tx) =>
            new Promise<void>((commit, rollback) => {
              started = true
              if (gone.has(owner)) {
                rollback(ROLLBACK)
                reject(new Error('the worker is gone'))
                return
              }
              open.set(id, {
                owner,
                tx,
                finish(ok) {
                  open.delete(id)
                  if (ok) commit()
                  else rollback(ROLLBACK)
                },
              })
              resolve(id)
            }),
        ).then(
          () => settle(id, undefined),
          (error: unknown) => {
            if (!started) reject(error)
            else settle(id, error === ROLLBACK ? undefined : error)
          },
        )
      })
    },

    end(tx: number, commit: boolean): Promise<void> {
      const held = open.get(tx)
      if (!held) return Promise.reject(new Error('the transaction is over'))
      const done = new Promise<void>((resolve, reject) =>
        outcomes.set(tx, (error) => (error === undefined ? resolve() : reject(error))),
      )
      held.finish(commit)
      return done
    },

    /** Rolls back what a worker that exited left open. */
    workerGone(owner: number): void {
      gone.add(owner)
      for (const held of [...open.values()]) if (held.owner === owner) held.finish(false)
    },
  }
}

export type SqlHost = ReturnType<typeof createSqlHost>
