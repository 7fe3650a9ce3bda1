import { randomUUID } from 'node:crypto'
import { createMemoryBlobStore } from '@pinfold/adapter-memory'
import { createPostgresChangeFeed, createPostgresRecordStore, fromPgPool, migrate } from '@pinfold/adapter-postgres'
import { createFileService, Denylists } from '@pinfold/core'
import { CID } from 'multiformats/cid'
import pg from 'pg'
import { describe, expect, it } from 'vitest'

const url = process.env.TEST_DATABASE_URL
const BLOCKED = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')
const query = { namespace: 'ipfs', cid: BLOCKED } as const

/** Two services on one fresh schema, each with its own pool and change-feed listener. */
async function twoInstances() {
  const schema = `pinfold_deny_${randomUUID().replaceAll('-', '')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const options = `-c search_path=${schema}`
  const pools: pg.Pool[] = []
  const instance = async () => {
    const pool = new pg.Pool({ connectionString: url, options, max: 3 })
    pools.push(pool)
    const client = fromPgPool(pool)
    await migrate(client)
    const connect = async () => {
      const listener = new pg.Client({ connectionString: url, options })
      await listener.connect()
      return listener
    }
    const changes = await createPostgresChangeFeed({ client: pool, connect })
    const service = createFileService({
      records: createPostgresRecordStore({ client }),
      blobs: createMemoryBlobStore(),
      denylists: new Denylists(),
      gatewayCache: { changes },
    })
    await Promise.all([service.denylist.load(), service.gatewayDenyRules.load()])
    return { service, changes }
  }
  const a = await instance()
  const b = await instance()
  return {
    a,
    b,
    async close() {
      await Promise.all([a.changes.close(), b.changes.close()])
      await Promise.all(pools.map((pool) => pool.end()))
      await admin.query(`drop schema ${schema} cascade`)
      await admin.end()
    },
  }
}

/**
 * Two instances on one PostgreSQL server, as two `pinfold serve` processes are: a deny rule the
 * operator (or a tenant, for its gateways) adds on one applies on the other once the change feed's
 * NOTIFY arrives, and its removal too. (The embedded PGlite is one process: there is no second instance to tell.)
 */
describe.skipIf(!url)('deny rules across instances (TEST_DATABASE_URL)', () => {
  it("an operator's rule added on one instance applies on the other within a notice, and is removed on both", async () => {
    const { a, b, close } = await twoInstances()
    try {
      const rule = await a.service.denylist.addRule(`/ipfs/${BLOCKED}`)
      expect(a.service.denylist.check(query)).toMatchObject({ list: 'operator', line: rule.line })
      await expect.poll(() => b.service.denylist.check(query), { timeout: 5_000, interval: 20 }).toBeDefined()
      await b.service.denylist.removeRule(rule.id)
      await expect.poll(() => a.service.denylist.check(query), { timeout: 5_000, interval: 20 }).toBeUndefined()
    } finally {
      await close()
    }
  })

  it("a tenant's rule added on one instance applies to its gateway on the other, and only there", async () => {
    const { a, b, close } = await twoInstances()
    const acme = { tenantId: 'acme', userId: 'alice' }
    const onAcme = { gatewayTenant: 'acme' }
    try {
      const rule = await a.service.gatewayDenyRules.addRule(acme, `/ipfs/${BLOCKED}`)
      expect(a.service.denylist.check(query, onAcme)).toMatchObject({ list: 'tenant', line: 1, tenant: 'acme' })
      await expect.poll(() => b.service.denylist.check(query, onAcme), { timeout: 5_000, interval: 20 }).toBeDefined()
      expect(b.service.denylist.check(query)).toBeUndefined()
      expect(b.service.denylist.check(query, { gatewayTenant: 'globex' })).toBeUndefined()
      await b.service.gatewayDenyRules.removeRule(acme, rule.id)
      await expect.poll(() => a.service.denylist.check(query, onAcme), { timeout: 5_000, interval: 20 }).toBeUndefined()
    } finally {
      await close()
    }
  })
})
