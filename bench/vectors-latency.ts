/**
 * Query latency of the two vector indexes at 10k and 100k passage vectors, and the recall of
 * pgvector's HNSW index against exact search.
 *
 *   npx tsx --conditions=source bench/vectors-latency.ts [--sizes=10000,100000] [--queries=100]
 *
 * Data: random unit vectors (Gaussian, seeded) of 356 dimensions — the default local embedder's size —
 * 10 passages per file, every file in one group of one tenant (the worst case for a group query: the
 * whole index is the group). Queries are fresh random unit vectors, top 10 files.
 *
 * - memory: `createMemoryRecordStore()` (exact search over every passage of the group).
 * - PGlite/pgvector: `createPostgresRecordStore` on in-process PGlite with pgvector, queries through
 *   the store (HNSW, cosine, m=16, ef_construction=64, the store's ef_search 100 with iterative scan).
 *   Loading goes around the store, as a bulk import would: the store's first upsert creates the
 *   index on the empty table; the bench drops it, inserts rows with multi-row INSERTs, then
 *   recreates the same index (building an HNSW index row by row in PGlite runs at ~120 rows/s).
 * - PGlite exact: the same database with `exactSearchMaxVectors` above the group size, i.e. the
 *   scan the store uses for groups of up to 10,000 passages.
 *
 * Recall@10: the share of the exact top-10 files that the HNSW query also returns. Random vectors
 * in 356 dimensions are nearly equidistant, the hardest case for an approximate index; embeddings of
 * real text cluster and fare better.
 */
import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createPostgresRecordStore, fromPGlite, migrate } from '@pinfold/adapter-postgres'
import type { RecordStore, VectorEmbedding, VectorMatch, VectorQuery } from '@pinfold/core'
import { seededRandom } from './lib/seeded-random.js'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const SIZES = (arg('sizes') ?? '10000,100000').split(',').map(Number)
const QUERIES = Number(arg('queries') ?? 100)
const DIMENSIONS = 356
const PASSAGES_PER_FILE = 10
const TOP_K = 10
const TENANT = 'bench'
const EMBEDDING: VectorEmbedding = { embedderId: 'bench-random@1', dimensions: DIMENSIONS }

/** Gaussian unit vectors from a seeded generator, so every run indexes the same data. */
function random(seed: number) {
  const uniform = seededRandom(seed)
  return () => {
    const v = new Float32Array(DIMENSIONS)
    let norm = 0
    for (let i = 0; i < DIMENSIONS; i++) {
      const g = Math.sqrt(-2 * Math.log(uniform() || 1e-12)) * Math.cos(2 * Math.PI * uniform())
      v[i] = g
      norm += g * g
    }
    norm = Math.sqrt(norm)
    for (let i = 0; i < DIMENSIONS; i++) v[i]! /= norm
    return v
  }
}

interface Dataset {
  files: { id: string; cid: string; vectors: Float32Array[] }[]
  queries: Float32Array[]
}

function dataset(size: number): Dataset {
  const next = random(size)
  const files = Array.from({ length: size / PASSAGES_PER_FILE }, () => ({
    id: randomUUID(),
    cid: `bafkrei${randomUUID().replaceAll('-', '')}`,
    vectors: Array.from({ length: PASSAGES_PER_FILE }, next),
  }))
  return { files, queries: Array.from({ length: QUERIES }, next) }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function timeQueries(store: RecordStore, groupId: string, queries: Float32Array[]) {
  const base: Omit<VectorQuery, 'vector'> = { tenantId: TENANT, network: 'private', groupId, limit: TOP_K }
  await store.vectors.queryVectors({ ...base, vector: queries[0]! }, EMBEDDING) // warm-up
  const times: number[] = []
  const results: VectorMatch[][] = []
  for (const q of queries) {
    const start = performance.now()
    results.push(await store.vectors.queryVectors({ ...base, vector: q }, EMBEDDING))
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), p99: percentile(times, 99), results }
}

function recall(approximate: VectorMatch[][], exact: VectorMatch[][]): number {
  let found = 0
  let total = 0
  exact.forEach((truth, i) => {
    const got = new Set(approximate[i]!.map((m) => m.fileId))
    for (const m of truth) if (got.has(m.fileId)) found++
    total += truth.length
  })
  return found / total
}

async function memoryRun(data: Dataset) {
  const store = createMemoryRecordStore()
  const start = performance.now()
  const group = await store.groups.createGroup({
    id: randomUUID(),
    tenantId: TENANT,
    network: 'private',
    name: 'bench',
    isPublic: false,
    createdAt: new Date(),
  })
  for (const file of data.files) {
    await store.files.createFile(
      {
        id: file.id,
        tenantId: TENANT,
        userId: 'u',
        network: 'private',
        name: 'f.txt',
        cid: file.cid,
        size: 1,
        numberOfFiles: 1,
        mimeType: 'text/plain',
        groupId: group.id,
        keyvalues: {},
        createdAt: new Date(),
        expiresAt: null,
      },
      { cid: file.cid, blobKey: `blobs/${file.id}`, size: 1, kind: 'file', profile: 'v1' },
    )
    await store.vectors.upsertFileVectors(TENANT, 'private', file.id, EMBEDDING, file.vectors)
  }
  const loadSeconds = (performance.now() - start) / 1000
  return { loadSeconds, ...(await timeQueries(store, group.id, data.queries)) }
}

const literal = (v: Float32Array) => `[${Array.from(v, (x) => x.toPrecision(9)).join(',')}]`

async function pgliteRun(data: Dataset) {
  const db = await PGlite.create({ extensions: { vector } })
  const client = fromPGlite(db)
  await migrate(client)
  const groupId = randomUUID()
  await db.query(
    `insert into groups (id, tenant_id, network, name, is_public, created_at) values ($1, $2, 'private', 'bench', false, now())`,
    [groupId, TENANT],
  )
  const ids = data.files.map((f) => f.id)
  const cids = data.files.map((f) => f.cid)
  await db.query(
    `insert into contents (cid, blob_key, size, kind, profile) select c, 'blobs/' || c, 1, 'file', 'v1' from unnest($1::text[]) c`,
    [cids],
  )
  await db.query(
    `insert into files (id, tenant_id, user_id, network, name, cid, size, number_of_files, mime_type, group_id, created_at)
     select i, $2, 'u', 'private', 'f.txt', c, 1, 1, 'text/plain', $3, now() from unnest($1::uuid[], $4::text[]) as t(i, c)`,
    [ids, TENANT, groupId, cids],
  )
  // The store records the embedder and creates its HNSW index on the first upsert...
  const store = createPostgresRecordStore({ client })
  await store.vectors.upsertFileVectors(TENANT, 'private', data.files[0]!.id, EMBEDDING, data.files[0]!.vectors)
  const { rows } = await db.query<{ indexdef: string }>(
    `select indexdef from pg_indexes where indexname = 'file_vectors_hnsw'`,
  )
  const indexdef = rows[0]!.indexdef
  // ...which the bench drops to bulk load, then rebuilds exactly as it was.
  await db.exec('drop index file_vectors_hnsw')
  const loadStart = performance.now()
  const rowsPerInsert = 500
  const flat = data.files
    .slice(1)
    .flatMap((file) => file.vectors.map((v, passage) => `('${file.id}', ${passage}, '${literal(v)}')`))
  for (let i = 0; i < flat.length; i += rowsPerInsert) {
    await db.exec(
      `insert into file_vectors (file_id, passage, embedding) values ${flat.slice(i, i + rowsPerInsert).join(',')}`,
    )
  }
  await db.exec(`update files set vectorized = true`)
  const insertSeconds = (performance.now() - loadStart) / 1000
  const buildStart = performance.now()
  // the graph must fit in maintenance_work_mem, else the build slows down several times
  await db.exec(`set maintenance_work_mem = '1GB'`)
  await db.exec(indexdef)
  const buildSeconds = (performance.now() - buildStart) / 1000

  const hnsw = await timeQueries(store, groupId, data.queries)
  const explain = await db.transaction(async (tx) => {
    // the settings the store's HNSW query runs with
    await tx.query(
      `select set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('enable_seqscan', 'off', true),
        set_config('enable_sort', 'off', true)`,
    )
    const plan = await tx.query<{ 'QUERY PLAN': string }>(
      `explain select v.file_id from file_vectors v
       where (select row(f.tenant_id, f.network, f.group_id) from files f where f.id = v.file_id) = row($1::text, 'private'::text, $2::uuid)
       order by v.embedding::vector(${DIMENSIONS}) <=> $3::vector(${DIMENSIONS}) limit 100`,
      [TENANT, groupId, literal(data.queries[0]!)],
    )
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n')
  })
  const exactStore = createPostgresRecordStore({ client, vectors: { exactSearchMaxVectors: Number.MAX_SAFE_INTEGER } })
  const exactQueries = data.queries.slice(0, Math.min(data.queries.length, 20))
  const exact = await timeQueries(exactStore, groupId, exactQueries)
  await db.close()
  return { insertSeconds, buildSeconds, hnsw, exact, usesIndex: explain.includes('file_vectors_hnsw') }
}

const lines: string[] = [
  `Query latency, top-${TOP_K} files of one group (${PASSAGES_PER_FILE} passages per file, ${DIMENSIONS}-d random unit vectors, ${QUERIES} queries; ${process.arch}, Node ${process.version}).`,
  '',
  '| vectors | index | p50 ms | p99 ms | recall@10 vs exact | load |',
  '|---|---|---|---|---|---|',
]
const started = performance.now()
for (const size of SIZES) {
  const data = dataset(size)
  const memory = await memoryRun(data)
  console.error(`memory ${size}: p50 ${memory.p50.toFixed(2)} ms, loaded in ${memory.loadSeconds.toFixed(1)} s`)
  const pg = await pgliteRun(data)
  console.error(
    `pglite ${size}: insert ${pg.insertSeconds.toFixed(1)} s, HNSW build ${pg.buildSeconds.toFixed(1)} s, p50 ${pg.hnsw.p50.toFixed(2)} ms, index used: ${pg.usesIndex}`,
  )
  const exactTruth = memory.results
  const n = size.toLocaleString('en-US')
  lines.push(
    `| ${n} | memory, exact | ${memory.p50.toFixed(2)} | ${memory.p99.toFixed(2)} | 1.000 | ${memory.loadSeconds.toFixed(1)} s through the store |`,
    `| ${n} | PGlite + pgvector HNSW (iterative scan) | ${pg.hnsw.p50.toFixed(2)} | ${pg.hnsw.p99.toFixed(2)} | ${recall(pg.hnsw.results, exactTruth).toFixed(3)} | insert ${pg.insertSeconds.toFixed(1)} s + build ${pg.buildSeconds.toFixed(1)} s${pg.usesIndex ? '' : ' (planner did not pick the index)'} |`,
    `| ${n} | PGlite exact scan (${pg.exact.results.length} queries) | ${pg.exact.p50.toFixed(2)} | ${pg.exact.p99.toFixed(2)} | ${recall(pg.exact.results, exactTruth.slice(0, pg.exact.results.length)).toFixed(3)} | same data |`,
  )
}
lines.push('', `Total run time ${((performance.now() - started) / 1000).toFixed(0)} s.`)
console.log(lines.join('\n'))
