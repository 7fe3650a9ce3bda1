/**
 * Pinning Service API scaling: the latency of `GET /pins` (a page of up to 1,000 requests and the
 * count of all that match) with 10k, 100k and 1M pins of one account on a PostgreSQL server
 * (BENCH_DATABASE_URL or TEST_DATABASE_URL). Requests are seeded with SQL straight into the migrated
 * schema (the per-state counts recomputed after each batch); every measured call is
 * a real request through the fetch handler, on a service over createPostgresRecordStore, its JSON
 * answer read whole. Each statement it sent is EXPLAINed. A flat operation costs about as much at 1M
 * as at 10k (ratio ≈ 1–2); the goal is `GET /pins?limit=1000` within 2× of itself at 10k.
 *
 * BENCH_PINS_SIZES (default `10000,100000,1000000`) tunes the run.
 */
import { createMemoryBlobStore } from '@pinfold/adapter-memory'
import { createPostgresRecordStore, fromPgPool, migrate, type SqlClient } from '@pinfold/adapter-postgres'
import { createFileService, createTokenVerifier, mintToken, SCOPES } from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import pg from 'pg'
import { planOf } from './lib/explain.js'
import { type Latency, measure } from './lib/latency.js'

const SIZES = (process.env.BENCH_PINS_SIZES ?? '10000,100000,1000000').split(',').map(Number)
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const TENANT = 'tenant-0'
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef'
const ORIGIN = 'http://pinfold.bench'

interface Measured extends Latency {
  plans: string[]
}

/**
 * Requests `from` … `to - 1` of the account, one second apart: 98 % pinned, 1 % failed, 1 % queued;
 * names `photo-<i>.jpg` (`report-<i>.pdf` for 1 %), meta `{app: a|b, batch: i % 1000}`.
 */
async function seedPins(db: SqlClient, from: number, to: number): Promise<void> {
  const batch = 100_000
  // the counts' trigger updates one row per state for every inserted row: fine one request at a
  // time, quadratic for 100,000 in one statement (each update walks the row's versions so far); it
  // is off while seeding, and the counts are recomputed as the trigger would have kept them
  await db.query('alter table pin_requests disable trigger pin_request_counts_move')
  for (let start = from; start < to; start += batch) {
    const end = Math.min(start + batch, to) - 1
    await db.query(
      `insert into pin_requests (id, tenant_id, user_id, cid, name, group_id, keyvalues, host_nodes, state,
                                 failure, reason, created_at, attempts, dag_size)
       select md5('p' || i)::uuid, '${TENANT}', 'user', 'bafkrei' || md5(i::text),
              case when i % 100 = 5 then 'report-' || i || '.pdf' else 'photo-' || i || '.jpg' end, null,
              jsonb_build_object('app', case when i % 2 = 0 then 'a' else 'b' end, 'batch', (i % 1000)::text), '{}',
              case when i % 100 = 7 then 'failed' when i % 100 = 8 then 'queued' else 'pinned' end,
              case when i % 100 = 7 then 'not_found' end, case when i % 100 = 7 then 'no source had it' end,
              timestamptz '2024-01-01' + i * interval '1 second', 1,
              case when i % 100 not in (7, 8) then 1024 + i % 4096 end
       from generate_series(${start}, ${end}) i`,
    )
  }
  await db.query('alter table pin_requests enable trigger pin_request_counts_move')
  await db.query(
    `insert into pin_request_counts (tenant_id, state, count)
     select tenant_id, state, count(*) from pin_requests group by tenant_id, state
     on conflict (tenant_id, state) do update set count = excluded.count`,
  )
  await db.query('analyze pin_requests')
}

/** Wraps a client so the benchmark can EXPLAIN every statement a request sent. */
function recording(client: SqlClient) {
  let sent: { text: string; params: unknown[] }[] = []
  const wrapped: SqlClient = {
    query: (text, params = []) => {
      sent.push({ text, params })
      return client.query(text, params)
    },
    transaction: (work) => client.transaction(work),
  }
  return {
    client: wrapped,
    take: () => {
      const out = sent
      sent = []
      return out
    },
  }
}

async function main(url: string): Promise<string> {
  const schema = `bench_pins_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 4 })
  const client = fromPgPool(pool)
  try {
    await migrate(client)
    const { client: recorded, take } = recording(client)
    const service = createFileService({
      records: createPostgresRecordStore({ client: recorded }),
      blobs: createMemoryBlobStore(),
    })
    const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: SECRET }), publicUrl: ORIGIN })
    const token = await mintToken(SECRET, { sub: 'bench', org: TENANT, scopes: SCOPES, expiresIn: '1d' })
    const get = async (query: string) => {
      const res = await handler(
        new Request(`${ORIGIN}/psa/pins${query}`, { headers: { authorization: `Bearer ${token}` } }),
      )
      if (res.status !== 200) throw new Error(`GET /psa/pins${query}: ${res.status} ${await res.text()}`)
      return (await res.json()) as { count: number; results: unknown[] }
    }
    const results = new Map<string, Map<number, Measured>>()
    const seeding: string[] = []
    let seeded = 0
    for (const size of SIZES) {
      const started = performance.now()
      await seedPins(client, seeded, size)
      seeding.push(
        `${(size - seeded).toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
      seeded = size
      const middle = new Date(Date.UTC(2024, 0, 1) + Math.floor(size / 2) * 1000).toISOString()
      const operations: [string, string][] = [
        ['GET /pins?limit=1000 (pinned, newest first)', '?limit=1000'],
        ['GET /pins (default: 10 newest pinned)', ''],
        ['GET /pins?limit=1000&before=<middle>', `?limit=1000&before=${encodeURIComponent(middle)}`],
        ['GET /pins?status=queued,pinning,pinned,failed&limit=1000', '?status=queued,pinning,pinned,failed&limit=1000'],
        ['GET /pins?status=failed&limit=1000 (1 %)', '?status=failed&limit=1000'],
        ['GET /pins?cid=<one>', `?cid=bafkrei${await md5(admin, String(Math.floor(size / 2)))}`],
        ['GET /pins?name=<exact>', `?name=photo-${Math.floor(size / 3)}.jpg`],
        ['GET /pins?meta={"batch":"7"} (0.1 %)', `?meta=${encodeURIComponent('{"batch":"7"}')}`],
      ]
      for (const [name, query] of operations) {
        const answer = await get(query)
        if (
          name.startsWith('GET /pins?limit=1000 (') &&
          (answer.results.length !== 1000 || answer.count < size * 0.9)
        ) {
          throw new Error(`unexpected answer at ${size}: ${answer.results.length} results, count ${answer.count}`)
        }
        const latency = await measure(() => get(query), 200, 3000)
        take()
        await get(query)
        const plans = await Promise.all(take().map(({ text, params }) => planOf(client, text, params)))
        if (!results.has(name)) results.set(name, new Map())
        results.get(name)!.set(size, { ...latency, plans })
      }
      process.stderr.write(`pins: ${size} done\n`)
    }
    return table(seeding, results)
  } finally {
    await pool.end()
    await admin.query(`drop schema ${schema} cascade`)
    await admin.end()
  }
}

async function md5(db: pg.Client, text: string): Promise<string> {
  const { rows } = await db.query('select md5($1) as hash', [text])
  return String(rows[0].hash)
}

const label = (size: number) => (size >= 1e6 ? `${size / 1e6}M` : size >= 1e3 ? `${size / 1e3}k` : String(size))

function table(seeding: string[], results: Map<string, Map<number, Measured>>): string {
  const first = SIZES[0]!
  const last = SIZES.at(-1)!
  const head = [
    '| request',
    ...SIZES.map((size) => `${label(size)} p50 / p99 ms`),
    `p99 ${label(last)} ÷ ${label(first)}`,
    `plans at ${label(last)} (page; count)`,
  ]
  const rows = [...results].map(([name, bySize]) => {
    const small = bySize.get(first)!
    const large = bySize.get(last)!
    const cells = SIZES.map((size) => `${bySize.get(size)!.p50Ms.toFixed(2)} / ${bySize.get(size)!.p99Ms.toFixed(2)}`)
    return `| ${name} | ${cells.join(' | ')} | ${(large.p99Ms / small.p99Ms).toFixed(2)} | ${large.plans.join('; ')} |`
  })
  return [
    `**PostgreSQL** — seeded ${seeding.join(', ')} (one account's pin requests: 98 % pinned, 1 % failed, 1 % queued); each request through the fetch handler, its JSON read whole.`,
    '',
    `${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n')
}

if (!DATABASE_URL) console.log('PostgreSQL server: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL).')
else console.log(await main(DATABASE_URL))
