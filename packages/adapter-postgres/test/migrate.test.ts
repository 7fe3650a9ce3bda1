import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresRecordStore, type Migration, migrate, type SqlClient } from '../src/index.js'
import { MIGRATIONS } from '../src/migrations/index.js'
import { closeSharedPGlite, pgliteSchema, serverPool, serverSchema, TEST_DATABASE_URL } from './targets.js'

afterAll(closeSharedPGlite)

const ALL_VERSIONS = MIGRATIONS.map((m) => m.version)
const NEXT_VERSION = Math.max(...ALL_VERSIONS) + 1
const CORE_TABLES = expect.arrayContaining(['contents', 'files', 'groups', 'pinfold_migrations'])

async function tables(client: SqlClient): Promise<string[]> {
  const { rows } = await client.query(
    'select table_name from information_schema.tables where table_schema = current_schema() order by table_name',
  )
  return rows.map((row) => String(row.table_name))
}

async function indexDefinitions(client: SqlClient): Promise<string[]> {
  const { rows } = await client.query('select indexdef from pg_indexes where schemaname = current_schema()')
  return rows.map((row) => String(row.indexdef))
}

/**
 * pgvector is one extension per database. Two stores in two schemas of one database (tests do this,
 * and so may an operator) must not share it through either schema: dropping one store's schema
 * once dropped the extension made in it, and every other store's vector columns with it.
 */
async function dropOneStoreKeepTheOthersVectors(
  freshSchema: () => Promise<{ client: SqlClient; drop(): Promise<void> }>,
): Promise<void> {
  const first = await freshSchema()
  await migrate(first.client)
  const second = await freshSchema() // on PGlite this switches the one connection to the second schema
  try {
    await migrate(second.client)
    await first.drop()
    const store = createPostgresRecordStore({ client: second.client })
    const group = await store.groups.createGroup({
      id: crypto.randomUUID(),
      tenantId: 't',
      network: 'private',
      name: 'g',
      isPublic: false,
      createdAt: new Date(),
    })
    const cid = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    const { file } = await store.files.createFile(
      {
        id: crypto.randomUUID(),
        tenantId: 't',
        userId: 'u',
        network: 'private',
        name: 'n.txt',
        cid,
        size: 1,
        numberOfFiles: 1,
        mimeType: 'text/plain',
        groupId: group.id,
        keyvalues: {},
        createdAt: new Date(),
        expiresAt: null,
      },
      { cid, blobKey: 'blobs/n', size: 1, kind: 'file', profile: 'v1' },
    )
    const embedder = { embedderId: 'migrate-test@1', dimensions: 2 }
    await store.vectors.upsertFileVectors('t', 'private', file.id, embedder, [new Float32Array([1, 0])])
    const matches = await store.vectors.queryVectors(
      { tenantId: 't', network: 'private', groupId: group.id, vector: new Float32Array([1, 0]), limit: 5 },
      embedder,
    )
    expect(matches.map((match) => match.fileId)).toEqual([file.id])
  } finally {
    await second.drop()
  }
}

// PGlite's WebAssembly starts inside the first test: tens of seconds on a loaded 2-core CI machine
describe('migrate on PGlite', { timeout: 120_000 }, () => {
  it('migrate - creates the schema once and records the version; a second run applies nothing', async () => {
    const schema = await pgliteSchema()
    try {
      expect(await migrate(schema.client)).toEqual(ALL_VERSIONS)
      expect(await tables(schema.client)).toEqual(CORE_TABLES)
      expect(await migrate(schema.client)).toEqual([])
      const { rows } = await schema.client.query('select version, name from pinfold_migrations order by version')
      expect(rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })))
    } finally {
      await schema.drop()
    }
  })

  it('migrate - sequential runs from several "processes" converge on one applied version', async () => {
    const schema = await pgliteSchema()
    try {
      const results = []
      for (let i = 0; i < 3; i++) results.push(await migrate(schema.client))
      expect(results).toEqual([ALL_VERSIONS, [], []])
    } finally {
      await schema.drop()
    }
  })

  it('migrate - a failing migration rolls back entirely and is retried next time', async () => {
    const schema = await pgliteSchema()
    try {
      await migrate(schema.client)
      const broken: Migration = {
        version: NEXT_VERSION,
        name: 'broken',
        statements: ['create table half (id int)', 'select nope'],
      }
      const failure = migrate(schema.client, [broken])
      await expect(failure).rejects.toMatchObject({ code: 'INTERNAL' })
      // the database's own words, which migration, and what to do: not only "migrate failed"
      const { message } = (await failure.catch((error: Error) => error)) as Error
      expect(message).toMatch(
        new RegExp(`^migration ${NEXT_VERSION} \\(broken\\) failed: column "nope" does not exist \\(SQLSTATE 42703\\)`),
      )
      expect(message).toContain('pinfold migrate')
      expect(await tables(schema.client)).not.toContain('half')
      const fixed: Migration = { version: NEXT_VERSION, name: 'fixed', statements: ['create table half (id int)'] }
      expect(await migrate(schema.client, [fixed])).toEqual([NEXT_VERSION])
      expect(await tables(schema.client)).toContain('half')
    } finally {
      await schema.drop()
    }
  })

  it('migrate - indexes every list filter, and creates pgvector where it is available', async () => {
    const schema = await pgliteSchema()
    try {
      await migrate(schema.client)
      const definitions = (await indexDefinitions(schema.client)).join('\n')
      for (const expected of [
        'files USING btree (tenant_id, network, created_at, id)',
        'files USING btree (cid, tenant_id, network)',
        'files USING btree (tenant_id, network, name text_pattern_ops)',
        'files USING btree (group_id, created_at, id)',
        'files USING btree (tenant_id, network, mime_type)',
        'files USING gin (keyvalues jsonb_path_ops)',
        'groups USING btree (tenant_id, network, created_at, id)',
        'groups USING btree (tenant_id, network, name text_pattern_ops)',
      ]) {
        expect(definitions).toContain(expected)
      }
      // PGlite here has pgvector, so migration 0006 installs it; a server without it still migrates
      // (see 'vector methods - without pgvector …' in vectors.test.ts, run with TEST_DATABASE_URL).
      const { rows } = await schema.client.query(`select extname from pg_extension where extname = 'vector'`)
      expect(rows).toEqual([{ extname: 'vector' }])
    } finally {
      await schema.drop()
    }
  })

  it("migrate - dropping one store's schema leaves pgvector, and another store's vectors, in place", () =>
    dropOneStoreKeepTheOthersVectors(pgliteSchema))
})

const databaseUrl = TEST_DATABASE_URL
describe.runIf(databaseUrl)('migrate on a PostgreSQL server (TEST_DATABASE_URL)', () => {
  it('migrate - eight processes starting at once apply the migration exactly once', async () => {
    const url = databaseUrl!
    const first = await serverSchema(url)
    // Separate pools stand in for separate processes: they share only the database and the schema.
    const others = Array.from({ length: 7 }, () => serverPool(url, first.schema))
    try {
      const results = await Promise.all([first, ...others].map(({ client }) => migrate(client)))
      expect(results.filter((applied) => applied.length > 0)).toEqual([ALL_VERSIONS])
      expect(await tables(first.client)).toEqual(CORE_TABLES)
    } finally {
      await Promise.all(others.map((other) => other.end()))
      await first.drop()
    }
  })

  it("migrate - dropping one store's schema leaves pgvector, and another store's vectors, in place", () =>
    dropOneStoreKeepTheOthersVectors(() => serverSchema(databaseUrl!)))
})
