/**
 * `GET /metrics` answer time on a large deployment: the built `pinfold serve` on PostgreSQL with
 * BENCH_METRICS_FILES files (default 1,000,000, one content and one block entry each) spread over
 * BENCH_METRICS_TENANTS tenants (default 10,000), after requests from every one of those tenants.
 * Reports the scrape's p50/p99 once the totals are kept (the steady state), the first scrape after
 * they went stale (a refresh it waits 25 ms for at most), and what the totals' sum itself takes.
 *
 * Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (it makes and drops a database of its own).
 */
import { mintToken, SCOPES } from '@pinfold/core'
import autocannon from 'autocannon'
import pg from 'pg'
import { BENCH_SECRET, startCliServer } from './lib/cli-server.js'
import { freshDatabase } from './lib/fresh-database.js'

const FILES = Number(process.env.BENCH_METRICS_FILES ?? 1_000_000)
const TENANTS = Number(process.env.BENCH_METRICS_TENANTS ?? 10_000)
const SCRAPES = 50
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef'
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
if (!serverUrl) {
  console.log('Skipped: needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server).')
  process.exit(0)
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * values.length) - 1)]!

async function timeScrape(url: string): Promise<{ ms: number; text: string }> {
  const started = performance.now()
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}: ${text}`)
  return { ms: performance.now() - started, text }
}

const database = await freshDatabase(serverUrl, 'pinfold_bench_metrics')
// a first start migrates the schema; the rows are then written straight into it
let server = await startCliServer({ DATABASE_URL: database.url, PINFOLD_METRICS_TOKEN: METRICS_TOKEN })
await server.stop()
const db = new pg.Client({ connectionString: database.url })
await db.connect()
const seedStarted = performance.now()
for (let start = 0; start < FILES; start += 100_000) {
  const end = Math.min(start + 100_000, FILES) - 1
  await db.query(
    `insert into contents (cid, blob_key, size, kind, profile)
     select 'bafkrei' || md5(i::text), 'blob-' || i, 1024 + i % 4096, 'file', 'v1' from generate_series(${start}, ${end}) i`,
  )
  await db.query(
    `insert into files (id, tenant_id, user_id, network, name, cid, size, number_of_files, mime_type, keyvalues, created_at)
     select md5('f' || i)::uuid, 'tenant-' || (i % ${TENANTS}), 'user', 'public', 'file-' || i || '.bin',
            'bafkrei' || md5(i::text), 1024 + i % 4096, 1, 'application/octet-stream', '{}',
            timestamptz '2024-01-01' + i * interval '1 second'
     from generate_series(${start}, ${end}) i`,
  )
  await db.query(
    `insert into blocks (blob_key, multihash, codec, source, byte_offset, byte_length, is_root)
     select 'blob-' || i, decode('1220' || md5(i::text) || md5(i::text), 'hex'), 85, 'blob', 0, 1024 + i % 4096, true
     from generate_series(${start}, ${end}) i`,
  )
}
await db.query('analyze')
const seedSeconds = (performance.now() - seedStarted) / 1000
const sumStarted = performance.now()
await db.query(
  `select (select count(*) from files), (select coalesce(sum(size), 0) from files), (select count(*) from contents),
          (select coalesce(sum(size), 0) from contents), (select count(*) from blocks)`,
)
const sumMs = performance.now() - sumStarted
await db.end()

let steady: number[] = []
let stale: number[] = []
let samples = 0
let kib = 0
let filesSeen = 0
server = await startCliServer({ DATABASE_URL: database.url, PINFOLD_METRICS_TOKEN: METRICS_TOKEN })
try {
  const tokens = await Promise.all(
    Array.from({ length: TENANTS }, (_, i) =>
      mintToken(BENCH_SECRET, { sub: 'u', org: `tenant-${i}`, scopes: SCOPES, expiresIn: '1d' }),
    ),
  )
  let next = 0
  await new Promise<void>((resolve, reject) => {
    autocannon(
      {
        url: `${server.url}/v3/files/public?limit=1`,
        connections: 10,
        amount: TENANTS,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              headers: { authorization: `Bearer ${tokens[next++ % TENANTS]}` },
            }),
          },
        ],
      },
      (error, result) =>
        error ? reject(error) : result.non2xx ? reject(new Error(`${result.non2xx} failed`)) : resolve(),
    )
  })
  // the first scrape starts the sums; wait until they have landed, then measure the steady state
  for (let tries = 0; tries < 120; tries++) {
    const { text } = await timeScrape(server.url)
    const match = /^pinfold_stored_files (\d+)/m.exec(text)
    if (match) {
      filesSeen = Number(match[1])
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  for (let i = 0; i < SCRAPES + 5; i++) {
    const { ms, text } = await timeScrape(server.url)
    steady.push(ms)
    samples = text.split('\n').filter((line) => line && !line.startsWith('#')).length
    kib = text.length / 1024
  }
  steady = steady.slice(5)
} finally {
  await server.stop()
}
// stale totals: a server that keeps them 0 ms refreshes at every scrape and waits ≤ 25 ms for it
server = await startCliServer({
  DATABASE_URL: database.url,
  PINFOLD_METRICS_TOKEN: METRICS_TOKEN,
  PINFOLD_METRICS_TOTALS_MAX_AGE_MS: '0',
})
try {
  for (let i = 0; i < 15; i++) stale.push((await timeScrape(server.url)).ms)
  stale = stale.slice(5)
} finally {
  await server.stop()
  await database.drop()
}

console.log(
  [
    `Built \`pinfold serve\` on PostgreSQL (\`DATABASE_URL\`), ${FILES.toLocaleString('en')} files (one content and one block entry each) over ${TENANTS.toLocaleString('en')} tenants, seeded in ${seedSeconds.toFixed(0)} s; ${TENANTS.toLocaleString('en')} requests first, one from each tenant's own token. The scrape reported ${filesSeen.toLocaleString('en')} files.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| \`GET /metrics\`, totals kept (steady state), p50 / p99 / max over ${steady.length} | ${percentile(steady, 50).toFixed(1)} / ${percentile(steady, 99).toFixed(1)} / ${Math.max(...steady).toFixed(1)} ms (goal ≤ 50 ms) |`,
    `| \`GET /metrics\`, totals stale at every scrape (waits ≤ 25 ms for the refresh), p50 / max over ${stale.length} | ${percentile(stale, 50).toFixed(1)} / ${Math.max(...stale).toFixed(1)} ms |`,
    `| the totals' sum (one statement over files, contents, blocks), once | ${sumMs.toFixed(0)} ms |`,
    `| exposition | ${samples} samples, ${kib.toFixed(1)} KiB |`,
  ].join('\n'),
)
