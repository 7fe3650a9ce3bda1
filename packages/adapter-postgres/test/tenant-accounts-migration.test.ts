import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresRecordStore, migrate } from '../src/index.js'
import { MIGRATIONS } from '../src/migrations/index.js'
import { closeSharedPGlite, pgliteSchema } from './targets.js'

afterAll(closeSharedPGlite)

const ACCOUNTS_VERSION = 22

// A deployment upgraded in place must start with true figures, not zeros: the migration fills them.
describe('migration 22 (tenant accounts)', { timeout: 120_000 }, () => {
  it('migrate - figures, holders and sole/shared bytes are filled from the files already stored', async () => {
    const schema = await pgliteSchema()
    try {
      await migrate(
        schema.client,
        MIGRATIONS.filter((m) => m.version < ACCOUNTS_VERSION),
      )
      const contents = { one: 100, shared: 50, other: 7 }
      for (const [cid, size] of Object.entries(contents)) {
        await schema.client.query(
          `insert into contents (cid, blob_key, size, kind, profile) values ($1, $2, $3, 'file', 'v1')`,
          [cid, `blobs/${cid}`, size],
        )
      }
      const files: [string, string, number][] = [
        ['a', 'one', 90],
        ['a', 'one', 90],
        ['a', 'shared', 40],
        ['b', 'shared', 40],
        ['b', 'other', 7],
      ]
      const ids: string[] = []
      for (const [tenant, cid, size] of files) {
        const id = randomUUID()
        ids.push(id)
        await schema.client.query(
          `insert into files (id, tenant_id, user_id, network, name, cid, size, number_of_files, mime_type, group_id,
             keyvalues, created_at, expires_at, vectorized)
           values ($1, $2, 'u', 'public', 'f', $3, $4, 1, 'text/plain', null, '{}', now(), null, false)`,
          [id, tenant, cid, size],
        )
      }
      // this one and every later migration, in order
      const later = MIGRATIONS.filter((m) => m.version >= ACCOUNTS_VERSION).map((m) => m.version)
      expect(await migrate(schema.client, MIGRATIONS)).toEqual(later)
      expect(later[0]).toBe(ACCOUNTS_VERSION)
      const store = createPostgresRecordStore({ client: schema.client })
      expect(await store.accounts.keptUsage('a')).toEqual({
        files: 3,
        logicalBytes: 220,
        contents: 2,
        soleBytes: 100,
        sharedBytes: 50,
      })
      expect(await store.accounts.keptUsage('b')).toEqual({
        files: 2,
        logicalBytes: 47,
        contents: 2,
        soleBytes: 7,
        sharedBytes: 50,
      })
      // the holder counts were filled too: a leaves the shared content, and it becomes b's alone
      await store.files.deleteFile('a', 'public', ids[2]!)
      expect(await store.accounts.keptUsage('b')).toMatchObject({ soleBytes: 57, sharedBytes: 0 })
      expect(await store.accounts.keptUsage('a')).toMatchObject({ contents: 1, soleBytes: 100, sharedBytes: 0 })
    } finally {
      await schema.drop()
    }
  })
})
