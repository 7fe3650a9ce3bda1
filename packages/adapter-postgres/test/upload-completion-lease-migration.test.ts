import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresRecordStore, migrate } from '../src/index.js'
import { MIGRATIONS } from '../src/migrations/index.js'
import { closeSharedPGlite, pgliteSchema } from './targets.js'

afterAll(closeSharedPGlite)

const LEASE_VERSION = 18

// Before leases, a process that died holding a completion claim left its session stuck for good.
describe('migration 18 (upload completion lease)', () => {
  it('migrate - a claim left by the old flag becomes a lease that ran out: a retry takes it over', async () => {
    const schema = await pgliteSchema()
    try {
      await migrate(
        schema.client,
        MIGRATIONS.filter((m) => m.version < LEASE_VERSION),
      )
      for (const [id, claimed] of [
        ['stuck', true],
        ['free', false],
      ] as const) {
        await schema.client.query(
          `insert into upload_sessions (id, token_hash, tenant_id, user_id, length, upload_offset, parts, file_name,
             options, created_at, expires_at, completion_claimed)
           values ($1, 'ab', 't', 'u', 10, 10, '{}', 'f', '{}', now(), now() + interval '1 day', $2)`,
          [id, claimed],
        )
      }
      expect(
        await migrate(
          schema.client,
          MIGRATIONS.filter((m) => m.version <= LEASE_VERSION),
        ),
      ).toEqual([LEASE_VERSION])
      const store = createPostgresRecordStore({ client: schema.client })
      const now = new Date()
      for (const id of ['stuck', 'free']) {
        expect(await store.uploadSessions.claimUploadCompletion(id, 'retry', now, 30_000), id).toBe('claimed')
        expect(await store.uploadSessions.claimUploadCompletion(id, 'other', now, 30_000), id).toBe('already')
      }
    } finally {
      await schema.drop()
    }
  })
})
