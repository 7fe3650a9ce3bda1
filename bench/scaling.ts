/**
 * Record store scaling: the latency of lookups and list pages with 10k, 100k and 1M file records,
 * on PGlite and (when BENCH_DATABASE_URL or TEST_DATABASE_URL is set) a PostgreSQL server. Records
 * are seeded with SQL straight into the migrated schema; every measured call goes through
 * createPostgresRecordStore, and its statement is EXPLAINed to show whether an index serves it.
 * A flat operation costs about as much at 1M as at 10k (ratio ≈ 1–3). Index changes listed in
 * lib/proposed-indexes.ts are then applied to the largest size and measured again.
 *
 * BENCH_SCALING_SIZES (default `10000,100000,1000000`) and BENCH_SCALING_PGLITE_MAX (largest size
 * seeded on PGlite, default the largest size) tune the run.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { createPostgresRecordStore, fromPGlite, fromPgPool, migrate, type SqlClient } from '@pinfold/adapter-postgres'
import type { FileFilter, PageRequest, RecordStore } from '@pinfold/core'
import pg from 'pg'
import { WORK_DIR } from './lib/bench-file.js'
import { planOf } from './lib/explain.js'
import { type Latency, measure } from './lib/latency.js'
import { PROPOSED_INDEX_CHANGES } from './lib/proposed-indexes.js'
import { SMALL_GROUPS, seededGroupId, seedFiles, seedGroups, TENANTS } from './lib/scaling-seed.js'

const SIZES = (process.env.BENCH_SCALING_SIZES ?? '10000,100000,1000000').split(',').map(Number)
const PGLITE_MAX = Number(process.env.BENCH_SCALING_PGLITE_MAX ?? SIZES.at(-1))
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const TENANT = 'tenant-0'
const PAGE: PageRequest = { limit: 10, order: 'DESC' }

interface Backend {
  name: string
  client: SqlClient
  /** One superuser connection (PGlite): seeding may switch foreign-key triggers off. */
  superuser: boolean
  close(): Promise<void>
}

interface Operation {
  name: string
  run(records: RecordStore): Promise<unknown>
}

interface Measured extends Latency {
  plan: string
}

/** Wraps a client so the benchmark can EXPLAIN the statement an operation sent. */
function recording(client: SqlClient) {
  let last: { text: string; params: unknown[] } | undefined
  const wrapped: SqlClient = {
    query: (text, params = []) => {
      last = { text, params }
      return client.query(text, params)
    },
    transaction: (work) => client.transaction(work),
  }
  return { client: wrapped, last: () => last! }
}

async function openPGlite(): Promise<Backend> {
  const directory = await mkdtemp(join(WORK_DIR, 'scaling-pglite-'))
  const db = await PGlite.create(join(directory, 'db'), { extensions: { vector } })
  return {
    name: 'PGlite',
    client: fromPGlite(db),
    superuser: true,
    close: async () => {
      await db.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}

/** A fresh schema on the server, dropped afterwards, so the benchmark never touches other data. */
async function openPostgres(url: string): Promise<Backend> {
  const schema = `bench_scaling_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 4 })
  return {
    name: 'PostgreSQL',
    client: fromPgPool(pool),
    superuser: false,
    close: async () => {
      await pool.end()
      await admin.query(`drop schema ${schema} cascade`)
      await admin.end()
    },
  }
}

/** The operations, with ids and cursors taken from the data as seeded (tenant-0, public). */
async function operations(db: SqlClient, size: number): Promise<Operation[]> {
  const middle = await db.query(
    `select id, cid, created_at from files where tenant_id = $1 and network = 'public'
     order by created_at desc, id desc offset $2 limit 1`,
    [TENANT, Math.floor(size / TENANTS / 2)],
  )
  const row = middle.rows[0]!
  const id = String(row.id)
  const cid = String(row.cid)
  const createdAt = row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at))
  const bigGroup = await seededGroupId(db, TENANT, 'public', 0)
  const smallGroup = await seededGroupId(db, TENANT, 'public', SMALL_GROUPS)
  const list =
    (filter: FileFilter, page: PageRequest = PAGE) =>
    (records: RecordStore) =>
      records.files.listFiles(TENANT, 'public', filter, page)
  return [
    { name: 'getFile by id', run: (r) => r.files.getFile(TENANT, 'public', id) },
    { name: 'listFiles, first page', run: list({}) },
    { name: 'listFiles, page in the middle (`after`)', run: list({}, { ...PAGE, after: { createdAt, id } }) },
    { name: 'listFiles by cid', run: list({ cid }) },
    { name: 'listFiles by name prefix (1 % match)', run: list({ namePrefix: 'report-' }) },
    { name: 'listFiles by keyvalue (33 % match)', run: list({ keyvalues: { env: 'prod' } }) },
    { name: 'listFiles by keyvalue (0.1 % match)', run: list({ keyvalues: { batch: '7' } }) },
    { name: 'listFiles by group (big: 10 % of files)', run: list({ groupId: bigGroup }) },
    { name: `listFiles by group (small: 0.15 % of files)`, run: list({ groupId: smallGroup }) },
    { name: 'listGroups, first page', run: (r) => r.groups.listGroups(TENANT, 'public', {}, PAGE) },
  ]
}

async function measureAll(backend: Backend, size: number): Promise<Map<string, Measured>> {
  const { client, last } = recording(backend.client)
  const records = createPostgresRecordStore({ client })
  const measured = new Map<string, Measured>()
  for (const op of await operations(backend.client, size)) {
    const latency = await measure(() => op.run(records))
    const { text, params } = last()
    measured.set(op.name, { ...latency, plan: await planOf(backend.client, text, params) })
  }
  return measured
}

async function benchBackend(backend: Backend): Promise<string> {
  const sizes = SIZES.filter((size) => backend.name !== 'PGlite' || size <= PGLITE_MAX)
  await migrate(backend.client)
  await seedGroups(backend.client)
  const results = new Map<string, Map<number, Measured>>()
  const seeding: string[] = []
  let seeded = 0
  for (const size of sizes) {
    const started = performance.now()
    await seedFiles(backend.client, seeded, size, backend.superuser)
    seeding.push(
      `${(size - seeded).toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
    seeded = size
    for (const [op, measured] of await measureAll(backend, size)) {
      if (!results.has(op)) results.set(op, new Map())
      results.get(op)!.set(size, measured)
    }
    process.stderr.write(`${backend.name}: ${size} done\n`)
  }
  const largest = sizes.at(-1)!
  if (PROPOSED_INDEX_CHANGES.length === 0) return table(backend.name, sizes, results, seeding)
  const started = performance.now()
  for (const statement of PROPOSED_INDEX_CHANGES) await backend.client.query(statement)
  const applied = `${((performance.now() - started) / 1000).toFixed(1)} s`
  const proposed = await measureAll(backend, largest)
  return `${table(backend.name, sizes, results, seeding)}\n\n${proposedTable(backend.name, largest, results, proposed, applied)}`
}

const label = (size: number) => (size >= 1e6 ? `${size / 1e6}M` : size >= 1e3 ? `${size / 1e3}k` : String(size))

function table(name: string, sizes: number[], results: Map<string, Map<number, Measured>>, seeding: string[]): string {
  const first = sizes[0]!
  const last = sizes.at(-1)!
  const head = [
    '| operation',
    ...sizes.map((size) => `${label(size)} p50 / p99 ms`),
    `p50 ${label(last)} ÷ ${label(first)}`,
    `plan at ${label(last)}`,
  ]
  const rows = [...results].map(([op, bySize]) => {
    const small = bySize.get(first)!
    const large = bySize.get(last)!
    const plan = small.plan === large.plan ? large.plan : `${large.plan} (at ${label(first)}: ${small.plan})`
    const cells = sizes.map((size) => {
      const m = bySize.get(size)!
      return `${m.p50Ms.toFixed(2)} / ${m.p99Ms.toFixed(2)}`
    })
    return `| ${op} | ${cells.join(' | ')} | ${(large.p50Ms / small.p50Ms).toFixed(1)} | ${plan} |`
  })
  return [
    `**${name}** — seeded ${seeding.join(', ')} (files spread over ${TENANTS} tenants; queries read one tenant's public files, page size ${PAGE.limit}, newest first).`,
    '',
    `${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n')
}

function proposedTable(
  name: string,
  size: number,
  results: Map<string, Map<number, Measured>>,
  proposed: Map<string, Measured>,
  applied: string,
): string {
  const cell = (m: Measured) => `${m.p50Ms.toFixed(2)} / ${m.p99Ms.toFixed(2)}`
  const rows = [...proposed].map(([op, after]) => {
    const before = results.get(op)!.get(size)!
    return `| ${op} | ${cell(before)} | ${cell(after)} | ${(after.p50Ms / before.p50Ms).toFixed(2)} | ${after.plan} |`
  })
  return [
    `${name} at ${label(size)} with the proposed index changes (\`bench/lib/proposed-indexes.ts\`, applied in ${applied}):`,
    '',
    '| operation | as migrated p50 / p99 ms | proposed p50 / p99 ms | p50 proposed ÷ migrated | plan |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n')
}

const backends: (() => Promise<Backend>)[] = [openPGlite]
if (DATABASE_URL) backends.push(() => openPostgres(DATABASE_URL))
const sections: string[] = []
for (const open of backends) {
  const backend = await open()
  try {
    sections.push(await benchBackend(backend))
  } finally {
    await backend.close()
  }
}
if (!DATABASE_URL) sections.push('PostgreSQL server: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL).')
console.log(sections.join('\n\n'))
