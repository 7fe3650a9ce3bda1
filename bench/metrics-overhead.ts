/**
 * What Prometheus metrics cost: the same built server (memory storage) with `/metrics` on
 * (`PINFOLD_METRICS_TOKEN`) and off, driven alternately in one run: the rate of small authenticated
 * requests (`GET /v3/groups/public`, autocannon) and multipart upload throughput (curl). Then the
 * time `/metrics` takes to answer after requests from BENCH_METRICS_TENANTS distinct tenants
 * (default 10,000), each with a token of its own.
 *
 * BENCH_METRICS_ROUNDS (default 10) alternating rounds; BENCH_METRICS_RATE_SECONDS (default 5) per
 * round and server; BENCH_METRICS_UPLOAD_MIB (default 64) per upload. BENCH_METRICS_SAME=1 runs both
 * servers with metrics off (an A/A run: the bench's own noise floor).
 *
 * While small requests run, this process (autocannon) is pinned to the first CPU and both servers to
 * the last one, so neither server is favoured by where the scheduler puts it: unpinned, an A/A run
 * on 2 cores gave the first-started server 8 % more requests per second. Uploads run unpinned (the
 * server's thread pool and curl need the cores).
 */

import { availableParallelism } from 'node:os'
import { mintToken, SCOPES } from '@pinfold/core'
import autocannon from 'autocannon'
import { benchFile } from './lib/bench-file.js'
import { curlUpload } from './lib/curl.js'
import { drive } from './lib/load.js'
import { cpuSeconds, pinProcess, startBenchServer } from './lib/process.js'

const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 10)
const RATE_SECONDS = Number(process.env.BENCH_METRICS_RATE_SECONDS ?? 5)
const UPLOAD_MIB = Number(process.env.BENCH_METRICS_UPLOAD_MIB ?? 64)
const TENANTS = Number(process.env.BENCH_METRICS_TENANTS ?? 10_000)
const CONNECTIONS = 10
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef' // api-server.mjs's
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef'
const TARGET = 0.97

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1]!

const off = await startBenchServer('api-server.mjs', { PINFOLD_METRICS_TOKEN: '' })
const SAME = process.env.BENCH_METRICS_SAME === '1'
const on = await startBenchServer('api-server.mjs', { PINFOLD_METRICS_TOKEN: SAME ? '' : METRICS_TOKEN })
// read once: pinned, this process's own parallelism reads 1
const CPUS = availableParallelism()
const LAST_CPU = String(CPUS - 1)
const ALL_CPUS = `0-${LAST_CPU}`
/** Pins (or frees) the driver and both servers; false where it cannot (one CPU, no taskset). */
const pinAll = (pinned: boolean) =>
  CPUS > 1 &&
  [process.pid, off.pid, on.pid].every((pid, i) => pinProcess(pid, pinned ? (i === 0 ? '0' : LAST_CPU) : ALL_CPUS))
const servers = [
  { name: 'metrics off', server: off },
  { name: 'metrics on', server: on },
]
type Figures = { rate: number[]; cpuMicros: number[]; uploadMBps: number[] }
const figures = new Map<string, Figures>(servers.map(({ name }) => [name, { rate: [], cpuMicros: [], uploadMBps: [] }]))
const file = await benchFile(UPLOAD_MIB * 1024 * 1024)
let pinned = false
let scrapeMs: number[] = []
let scrapeBytes = 0
let series = 0
try {
  if ((await fetch(`${off.url}/metrics`)).status !== 404) throw new Error('metrics are on in the "off" server')
  if (SAME && (await fetch(`${on.url}/metrics`)).status !== 404) throw new Error('BENCH_METRICS_SAME: metrics are on')
  for (const { server } of servers) {
    await drive({ url: `${server.url}/v3/groups/public`, token: server.token, seconds: 2, connections: CONNECTIONS })
  }
  for (let round = 0; round < ROUNDS; round++) {
    // the order flips every round, so a burst of load elsewhere on the machine falls on both
    for (const { name, server } of round % 2 ? [...servers].reverse() : servers) {
      pinned = pinAll(true)
      const before = cpuSeconds(server.pid)
      const load = await drive({
        url: `${server.url}/v3/groups/public`,
        token: server.token,
        seconds: RATE_SECONDS,
        connections: CONNECTIONS,
      })
      if (load.failures > 0) throw new Error(`${name}: ${load.failures} failed requests`)
      const row = figures.get(name)!
      row.rate.push(load.requestsPerSecond)
      row.cpuMicros.push(((cpuSeconds(server.pid) - before) * 1e6) / load.requests)
      pinAll(false)
      // the same file every time: from the second upload on it is a duplicate on both servers alike
      // (still received, hashed and staged whole; only the commit finds the content stored)
      const upload = await curlUpload(server.url, server.token, file, { name: `round-${round}` })
      if (upload.status !== 200) throw new Error(`${name}: upload answered ${upload.status}`)
      row.uploadMBps.push(UPLOAD_MIB / upload.seconds)
    }
  }

  // tenants: each request from a token of its own tenant; no metric has a tenant label, so the
  // exposition must not grow with them (an A/A run has no /metrics to scrape)
  if (!SAME) await scrapeAfterTenants()
} finally {
  await Promise.all([off.stop(), on.stop()])
}

async function scrapeAfterTenants(): Promise<void> {
  const tokens = await Promise.all(
    Array.from({ length: TENANTS }, (_, i) =>
      mintToken(SECRET, { sub: 'u', org: `tenant-${i}`, scopes: SCOPES, expiresIn: '1d' }),
    ),
  )
  let next = 0
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${on.url}/v3/groups/public`,
        connections: CONNECTIONS,
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
    void instance
  })
  for (let i = 0; i < 60; i++) {
    const started = performance.now()
    const res = await fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    const text = await res.text()
    scrapeMs.push(performance.now() - started)
    scrapeBytes = text.length
    series = text.split('\n').filter((line) => line && !line.startsWith('#')).length
  }
  scrapeMs = scrapeMs.slice(10) // the first scrapes warm the JIT
}

const offRow = figures.get('metrics off')!
const onRow = figures.get('metrics on')!
const ratio = (pick: (f: Figures) => number[]) => median(pick(onRow)) / median(pick(offRow))
const verdict = (r: number) => (r >= TARGET ? 'met' : 'missed')
const rateRatio = ratio((f) => f.rate)
const uploadRatio = ratio((f) => f.uploadMBps)
const cpuRatio = median(offRow.cpuMicros) / median(onRow.cpuMicros)
console.log(
  [
    `Same built server (memory storage) with \`/metrics\` off and ${SAME ? 'off again (A/A: BENCH_METRICS_SAME=1, the column "metrics on" is a second server with metrics off)' : 'on'}, ${ROUNDS} alternating rounds (order flipped each round): ${RATE_SECONDS} s of \`GET /v3/groups/public\` (autocannon, ${CONNECTIONS} connections${pinned ? `; autocannon pinned to CPU 0, the servers to CPU ${LAST_CPU}` : '; not pinned'}) and one ${UPLOAD_MIB} MiB multipart upload (curl, unpinned) per round and server. Medians over the rounds; target: on ≥ ${TARGET} × off.`,
    '',
    '| figure | metrics off | metrics on | on ÷ off |',
    '|---|---|---|---|',
    `| small requests, req/s | ${median(offRow.rate).toFixed(0)} | ${median(onRow.rate).toFixed(0)} | ${rateRatio.toFixed(3)} (${verdict(rateRatio)}) |`,
    `| server CPU µs per small request | ${median(offRow.cpuMicros).toFixed(0)} | ${median(onRow.cpuMicros).toFixed(0)} | ${cpuRatio.toFixed(3)} (off CPU ÷ on CPU; ${verdict(cpuRatio)}) |`,
    `| multipart upload, MB/s | ${median(offRow.uploadMBps).toFixed(1)} | ${median(onRow.uploadMBps).toFixed(1)} | ${uploadRatio.toFixed(3)} (${verdict(uploadRatio)}) |`,
    '',
    `Rounds, req/s off: ${offRow.rate.map((r) => r.toFixed(0)).join(', ')}; on: ${onRow.rate.map((r) => r.toFixed(0)).join(', ')}. Upload MB/s off: ${offRow.uploadMBps.map((r) => r.toFixed(1)).join(', ')}; on: ${onRow.uploadMBps.map((r) => r.toFixed(1)).join(', ')}.`,
    ...(SAME
      ? []
      : [
          '',
          `\`GET /metrics\` after ${TENANTS} requests from ${TENANTS} distinct tenants: p50 ${median(scrapeMs).toFixed(1)} ms, p99 ${percentile(scrapeMs, 99).toFixed(1)} ms, max ${Math.max(...scrapeMs).toFixed(1)} ms over ${scrapeMs.length} scrapes (goal ≤ 50 ms); ${series} samples, ${(scrapeBytes / 1024).toFixed(1)} KiB.`,
        ]),
  ].join('\n'),
)
