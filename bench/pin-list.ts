/**
 * `GET /data/pinList` at size: the legacy listing's latency through the fetch handler (routing,
 * query parsing, core, the PostgreSQL record store, the JSON answer) with 10k and 1M file records
 * on a PostgreSQL server, the `scaling` benchmark's seed (`lib/scaling-seed.ts`). Each query's
 * statement is EXPLAINed at both sizes. The goal: p99 at 1M within 2× of the same at 10k.
 *
 * Runs on BENCH_DATABASE_URL or TEST_DATABASE_URL (a fresh schema is made and dropped); without
 * either it says so and measures nothing.
 * BENCH_PIN_LIST_SIZES (default `10000,1000000`) tunes the run.
 */
import { createMemoryBlobStore } from '@pinfold/adapter-memory'
import { createPostgresRecordStore, fromPgPool, migrate, type SqlClient } from '@pinfold/adapter-postgres'
import { createFileService, createTokenVerifier, mintToken } from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import pg from 'pg'
import { planOf } from './lib/explain.js'
import { type Latency, measure } from './lib/latency.js'
import { seedFiles, seedGroups, TENANTS } from './lib/scaling-seed.js'

const SIZES = (process.env.BENCH_PIN_LIST_SIZES ?? '10000,1000000').split(',').map(Number)
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
if (!DATABASE_URL) {
  console.log('PostgreSQL server: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL).')
  process.exit(0)
}
const SECRET = 'pin-list-bench-secret-0123456789abcdef0123'
const TENANT = 'tenant-0'

const kv = (spec: unknown) => `metadata[keyvalues]=${encodeURIComponent(JSON.stringify(spec))}`

/** The queries, as `pinata-web3` sends them (`status=pinned&includeCount=false&…`). */
const QUERIES: { name: string; query: string }[] = [
  { name: 'default page (10, newest first)', query: '' },
  { name: 'pageLimit=1000', query: 'pageLimit=1000' },
  { name: 'pageOffset=1000', query: 'pageLimit=10&pageOffset=1000' },
  { name: 'keyvalue eq, 33 % match', query: kv({ env: { value: 'prod', op: 'eq' } }) },
  { name: 'keyvalue eq, 0.1 % match', query: kv({ batch: { value: '7', op: 'eq' } }) },
  { name: 'keyvalue numeric gte, 1 % match', query: kv({ batch: { value: 990, op: 'gte' } }) },
  { name: 'keyvalue iLike, 33 % match', query: kv({ env: { value: 'PR%', op: 'iLike' } }) },
  { name: 'name contains, 1 % match', query: 'metadata[name]=report' },
  { name: 'pinSizeMin, 2 % match', query: 'pinSizeMin=5040' },
  { name: 'pinStart..pinEnd (a day)', query: 'pinStart=2024-01-01T01:00:00Z&pinEnd=2024-01-02T01:00:00Z' },
]

/** Wraps a client so the benchmark can EXPLAIN the statement the listing sent. */
function recording(client: SqlClient) {
  let last: { text: string; params: unknown[] } | undefined
  const wrapped: SqlClient = {
    query: (text, params = []) => {
      if (/from files/.test(text)) last = { text, params }
      return client.query(text, params)
    },
    transaction: (work) => client.transaction(work),
  }
  return { client: wrapped, last: () => last! }
}

const schema = `bench_pin_list_${process.pid}`
const admin = new pg.Client({ connectionString: DATABASE_URL })
await admin.connect()
await admin.query(`create schema ${schema}`)
const pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}`, max: 4 })
const raw = fromPgPool(pool)
const results = new Map<string, Map<number, Latency & { plan: string; rows: number }>>()
const seeding: string[] = []
try {
  await migrate(raw)
  await seedGroups(raw)
  const { client, last } = recording(raw)
  const service = createFileService({ records: createPostgresRecordStore({ client }), blobs: createMemoryBlobStore() })
  const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: SECRET }) })
  const token = await mintToken(SECRET, { sub: 'bench', org: TENANT, scopes: ['org:files:read'], expiresIn: '1h' })
  const get = async (query: string) => {
    const res = await handler(
      new Request(`http://bench.test/data/pinList?status=pinned&includeCount=false&${query}`, {
        headers: { authorization: `Bearer ${token}` },
      }),
    )
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { rows: unknown[] }).rows.length
  }
  let seeded = 0
  for (const size of SIZES) {
    const started = performance.now()
    await seedFiles(raw, seeded, size)
    seeding.push(
      `${(size - seeded).toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
    seeded = size
    for (const { name, query } of QUERIES) {
      const rows = await get(query)
      const latency = await measure(() => get(query))
      const { text, params } = last()
      if (!results.has(name)) results.set(name, new Map())
      results.get(name)!.set(size, { ...latency, rows, plan: await planOf(raw, text, params) })
    }
    process.stderr.write(`pin-list: ${size} done\n`)
  }
} finally {
  await pool.end()
  await admin.query(`drop schema ${schema} cascade`)
  await admin.end()
}

const label = (size: number) => (size >= 1e6 ? `${size / 1e6}M` : size >= 1e3 ? `${size / 1e3}k` : String(size))
const first = SIZES[0]!
const largest = SIZES.at(-1)!
const head = [
  '| query',
  ...SIZES.map((s) => `${label(s)} p50 / p99 ms`),
  `p99 ${label(largest)} ÷ ${label(first)}`,
  'rows',
  `plan at ${label(largest)}`,
]
console.log(
  [
    `**GET /data/pinList on PostgreSQL** — seeded ${seeding.join(', ')} (files over ${TENANTS} tenants; one tenant's public files listed, through the fetch handler in process).`,
    '',
    `${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...[...results].map(([name, bySize]) => {
      const small = bySize.get(first)!
      const large = bySize.get(largest)!
      const cells = SIZES.map((s) => `${bySize.get(s)!.p50Ms.toFixed(2)} / ${bySize.get(s)!.p99Ms.toFixed(2)}`)
      const plan = small.plan === large.plan ? large.plan : `${large.plan} (at ${label(first)}: ${small.plan})`
      return `| ${name} | ${cells.join(' | ')} | ${(large.p99Ms / small.p99Ms).toFixed(1)} | ${large.rows} | ${plan} |`
    }),
  ].join('\n'),
)
