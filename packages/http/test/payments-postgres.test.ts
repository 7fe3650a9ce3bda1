import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { createMemoryBlobStore } from '@pinfold/adapter-memory'
import { createPostgresRecordStore, fromPGlite, fromPgPool, migrate, type SqlClient } from '@pinfold/adapter-postgres'
import type { RecordStore } from '@pinfold/core'
import { priceCid, randomAccount, signedHeader, startPaidApi, uploadPrivate } from '@pinfold/testing/payments'
import type { TestApi } from '@pinfold/testing/test-api'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/** Set by CI (and by hand) to run against a real PostgreSQL server too. */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL

interface Target {
  /** One record store per simulated server process, all over the same database. */
  stores(count: number): Promise<RecordStore[]>
  close(): Promise<void>
}

async function pgliteTarget(): Promise<Target> {
  const db = await PGlite.create()
  const client = fromPGlite(db)
  await migrate(client)
  return {
    // PGlite has one connection, so "processes" share it; the real server below has separate pools.
    stores: async (count) => Array.from({ length: count }, () => createPostgresRecordStore({ client })),
    close: () => db.close(),
  }
}

async function serverTarget(url: string): Promise<Target> {
  const schema = `pinfold_test_${randomUUID().replaceAll('-', '')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const pools: pg.Pool[] = []
  const clientFor = (): SqlClient => {
    const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 10 })
    pools.push(pool)
    return fromPgPool(pool)
  }
  await migrate(clientFor())
  return {
    stores: async (count) => Array.from({ length: count }, () => createPostgresRecordStore({ client: clientFor() })),
    async close() {
      await Promise.all(pools.map((pool) => pool.end()))
      await admin.query(`drop schema ${schema} cascade`)
      await admin.end()
    },
  }
}

const targets: [string, () => Promise<Target>][] = [['PGlite', pgliteTarget]]
if (TEST_DATABASE_URL) targets.push(['PostgreSQL server (TEST_DATABASE_URL)', () => serverTarget(TEST_DATABASE_URL)])

describe.each(targets)('paid retrieval on %s', (_name, makeTarget) => {
  let target: Target
  let servers: TestApi[]
  let cid: string

  beforeAll(async () => {
    target = await makeTarget()
    // two servers over one database: the replay claim must hold across processes, not just within one
    const blobs = createMemoryBlobStore()
    servers = await Promise.all((await target.stores(2)).map((records) => startPaidApi({ records, blobs })))
    cid = await uploadPrivate(servers[0]!, 'bytes behind a paywall')
    await priceCid(servers[0]!, cid)
  })
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()))
    await target.close()
  })

  it('retrievePrivate - 20 concurrent replays of one payment across two servers yield exactly one 200', async () => {
    const path = `/v1/retrieve/private/${cid}`
    const { name, value } = await signedHeader({ account: randomAccount(), resource: `${servers[0]!.url}${path}` })
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        servers[i % 2]!.fetch(`${servers[i % 2]!.url}${path}`, { headers: { [name]: value } }),
      ),
    )
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 402)).toHaveLength(19)
  })

  it('retrievePrivate - a payment through the other server opens the same file', async () => {
    const path = `/v1/retrieve/private/${cid}`
    const { name, value } = await signedHeader({ account: randomAccount(), resource: `${servers[1]!.url}${path}` })
    const res = await servers[1]!.fetch(`${servers[1]!.url}${path}`, { headers: { [name]: value } })
    expect(res.status).toBe(200)
    const { url } = (await res.json()) as { url: string }
    expect(await (await servers[1]!.fetch(url)).text()).toBe('bytes behind a paywall')
  })
})
