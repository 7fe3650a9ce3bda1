import { createCipheriv, randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { describeVectorRecords } from '@pinfold/conformance'
import type { RecordStore, VectorEmbedding } from '@pinfold/interface'
import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresRecordStore, enableVectors, fromPGlite, migrate, type SqlClient } from '../src/index.js'
import { closeSharedPGlite, countingProbe, migratedPGliteSchema, serverSchema, TEST_DATABASE_URL } from './targets.js'

afterAll(closeSharedPGlite)

type Schema = { client: SqlClient; drop(): Promise<void> }
const databaseUrl = TEST_DATABASE_URL
/** PGlite always; the PostgreSQL server of `TEST_DATABASE_URL` too (CI builds pgvector into it). */
const targets: [string, () => Promise<Schema>][] = [
  ['PGlite', migratedPGliteSchema],
  ...(databaseUrl
    ? [['server (TEST_DATABASE_URL)', () => serverSchema(databaseUrl)] as [string, () => Promise<Schema>]]
    : []),
]

for (const [target, freshSchema] of targets) {
  // The record-store suite covers the exact path (small groups); this runs the same vector contract
  // with every query going through the HNSW index and its iterative scan.
  describeVectorRecords(`PostgreSQL on ${target}, HNSW index for every group`, async () => {
    const schema = await freshSchema()
    await migrate(schema.client)
    return {
      store: createPostgresRecordStore({ client: schema.client, vectors: { exactSearchMaxVectors: 0 } }),
      probe: countingProbe(schema.client),
      close: schema.drop,
      capabilities: { vectors: true },
    }
  })
}

const EMBEDDER: VectorEmbedding = { embedderId: 'pg-test@1', dimensions: 4 }

async function addFile(store: RecordStore, tenantId: string, groupId: string | null) {
  const cid = `bafkrei${randomUUID().replaceAll('-', '')}`
  const { file } = await store.files.createFile(
    {
      id: randomUUID(),
      tenantId,
      userId: 'u',
      network: 'private',
      name: 'n.txt',
      cid,
      size: 1,
      numberOfFiles: 1,
      mimeType: 'text/plain',
      groupId,
      keyvalues: {},
      createdAt: new Date(),
      expiresAt: null,
    },
    { cid, blobKey: `blobs/${randomUUID()}`, size: 1, kind: 'file', profile: 'v1' },
  )
  return file
}

describe.each(targets)('PostgreSQL vectors on %s', (_target, freshSchema) => {
  it("queryVectors - through HNSW, a small group is answered in full even when other tenants' vectors are all closer", async () => {
    const schema = await freshSchema()
    try {
      await migrate(schema.client)
      const store = createPostgresRecordStore({ client: schema.client, vectors: { exactSearchMaxVectors: 0 } })
      const crowd = await store.groups.createGroup({
        id: randomUUID(),
        tenantId: 'crowd',
        network: 'private',
        name: 'g',
        isPublic: false,
        createdAt: new Date(),
      })
      for (let i = 0; i < 300; i++) {
        const file = await addFile(store, 'crowd', crowd.id)
        await store.vectors.upsertFileVectors('crowd', 'private', file.id, EMBEDDER, [
          new Float32Array([1, i / 1000, 0, 0]),
        ])
      }
      const mine = await store.groups.createGroup({ ...crowd, id: randomUUID(), tenantId: 'me' })
      const far = []
      for (let i = 0; i < 3; i++) {
        const file = await addFile(store, 'me', mine.id)
        await store.vectors.upsertFileVectors('me', 'private', file.id, EMBEDDER, [new Float32Array([0, 0, 1, i])])
        far.push(file.id)
      }
      const query = {
        tenantId: 'me',
        network: 'private' as const,
        groupId: mine.id,
        vector: new Float32Array([1, 0, 0, 0]),
      }
      const matches = await store.vectors.queryVectors({ ...query, limit: 20 }, EMBEDDER)
      expect(matches.map((m) => m.fileId).sort()).toEqual(far.sort())
      expect(await store.vectors.queryVectors({ ...query, limit: 2 }, EMBEDDER)).toHaveLength(2)
    } finally {
      await schema.drop()
    }
  })

  it('queryVectors - an index walk cut short by maxScanTuples is never the answer: the exact top 10, every query', async () => {
    const schema = await freshSchema()
    try {
      await migrate(schema.client)
      // A sparse graph (m 2) walks inexactly, and maxScanTuples 40 stops each walk after its first
      // batch with 20–40 of the group's rows: more than the 10 asked for, fewer than the 100
      // candidates it wanted. Such a walk's best rows are only the best of what it visited (on 100k
      // GloVe vectors, recall 0.75), so the store must answer from the exact scan instead.
      const store = createPostgresRecordStore({
        client: schema.client,
        vectors: { exactSearchMaxVectors: 0, maxScanTuples: 40, hnswM: 2, hnswEfConstruction: 4 },
      })
      const group = async (tenantId: string) =>
        store.groups.createGroup({
          id: randomUUID(),
          tenantId,
          network: 'private',
          name: 'g',
          isPublic: false,
          createdAt: new Date(),
        })
      const embedding: VectorEmbedding = { embedderId: 'pg-test-early-stop@1', dimensions: 64 }
      // deterministic bytes (a ChaCha20 key stream), so a failure can be run again as it was
      const stream = createCipheriv('chacha20', Buffer.alloc(32, 7), Buffer.alloc(16))
      const unitVector = () => {
        const v = [...stream.update(Buffer.alloc(64))].map((byte) => byte - 127.5)
        const norm = Math.hypot(...v)
        return v.map((x) => x / norm)
      }
      const [crowd, mine] = [await group('crowd'), await group('me')]
      const files: { id: string; vector: number[] }[] = []
      for (let i = 0; i < 1500; i++) {
        // one file in five is ours, spread through the index
        const [tenantId, groupId] = i % 5 === 0 ? ['me', mine.id] : ['crowd', crowd.id]
        const file = await addFile(store, tenantId, groupId)
        const vector = unitVector()
        await store.vectors.upsertFileVectors(tenantId, 'private', file.id, embedding, [new Float32Array(vector)])
        if (tenantId === 'me') files.push({ id: file.id, vector })
      }
      for (let q = 0; q < 12; q++) {
        const query = unitVector()
        const exact = files
          .map((f) => ({ id: f.id, score: f.vector.reduce((sum, x, d) => sum + x * query[d]!, 0) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 10)
          .map((f) => f.id)
        const matches = await store.vectors.queryVectors(
          { tenantId: 'me', network: 'private', groupId: mine.id, vector: new Float32Array(query), limit: 10 },
          embedding,
        )
        expect(matches.map((m) => m.fileId)).toEqual(exact)
      }
    } finally {
      await schema.drop()
    }
  }, 120_000)

  it('migrate - creates the vector tables and the embedder index where pgvector is available', async () => {
    const schema = await freshSchema()
    try {
      await migrate(schema.client)
      expect(await enableVectors(schema.client)).toBe(true)
      const store = createPostgresRecordStore({ client: schema.client })
      const file = await addFile(store, 't', null)
      await store.vectors.upsertFileVectors('t', 'private', file.id, EMBEDDER, [new Float32Array([1, 0, 0, 0])])
      const { rows } = await schema.client.query(
        `select indexdef from pg_indexes where schemaname = current_schema() and indexname = 'file_vectors_hnsw'`,
      )
      expect(String(rows[0]?.indexdef)).toMatch(
        /hnsw[\s\S]*vector\(4\)[\s\S]*vector_cosine_ops[\s\S]*m='16'[\s\S]*ef_construction='64'/,
      )
      await store.vectors.resetVectorIndex()
      const after = await schema.client.query(
        `select count(*) as n from pg_indexes where schemaname = current_schema() and indexname = 'file_vectors_hnsw'`,
      )
      expect(Number(after.rows[0]?.n)).toBe(0)
      // the next embedder's index is built with the deployment's parameters
      const tuned = createPostgresRecordStore({
        client: schema.client,
        vectors: { hnswM: 24, hnswEfConstruction: 100 },
      })
      await tuned.vectors.upsertFileVectors('t', 'private', file.id, EMBEDDER, [new Float32Array([0, 1, 0, 0])])
      const rebuilt = await schema.client.query(
        `select indexdef from pg_indexes where schemaname = current_schema() and indexname = 'file_vectors_hnsw'`,
      )
      expect(String(rebuilt.rows[0]?.indexdef)).toMatch(/m='24'[\s\S]*ef_construction='100'/)
    } finally {
      await schema.drop()
    }
  })
})

// A database with no pgvector at all: a PGlite started without the extension, so this runs
// everywhere (CI's server has pgvector, so it cannot stand in for this case).
describe('PostgreSQL without pgvector', () => {
  it('vector methods - migrate succeeds and every call is UNAVAILABLE naming pgvector', async () => {
    const db = await PGlite.create()
    try {
      const client = fromPGlite(db)
      await migrate(client)
      expect(await enableVectors(client)).toBe(false)
      const store = createPostgresRecordStore({ client })
      await expect(store.vectors.getVectorEmbedding()).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringContaining('pgvector'),
      })
      const file = await addFile(store, 't', null)
      expect(await store.files.getFile('t', 'private', file.id)).toMatchObject({ vectorized: false })
    } finally {
      await db.close()
    }
  })
})
