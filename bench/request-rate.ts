/**
 * Request rate of small authenticated requests (`GET /v3/groups/public`, `GET /v3/files/public/{id}`)
 * against a Pinfold server (memory storage, built packages, own process), as a ratio to a bare
 * node:http JSON handler measured in this run. autocannon drives both from this process.
 *
 * BENCH_RATE_SECONDS (default 10) per target; BENCH_CPU_PROF=1 profiles the Pinfold server and
 * prints where its busy time went.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { WORK_DIR } from './lib/bench-file.js'
import { hotSpots } from './lib/cpu-profile.js'
import { drive, type LoadFigures } from './lib/load.js'
import { cpuSeconds, startBenchServer } from './lib/process.js'
import { seedThroughApi } from './lib/seed-api.js'

const SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 10)
const CONNECTIONS = 10
// Each target's time is split over alternating rounds, so a burst of load from other processes on
// this shared machine hits the baseline and the server under test alike.
const ROUNDS = 2
const TARGET_RATIO = 0.5

interface Target {
  name: string
  url: string
  token?: string
  pid: number
}

interface Run extends LoadFigures {
  /** Server CPU time per answered request, µs. */
  cpuMicros: number
}

async function driveAndTime(target: Target, seconds: number): Promise<Run> {
  const cpuBefore = cpuSeconds(target.pid)
  const figures = await drive({ ...target, seconds, connections: CONNECTIONS })
  return { ...figures, cpuMicros: ((cpuSeconds(target.pid) - cpuBefore) * 1e6) / figures.requests }
}

function mean(rows: Run[], pick: (row: Run) => number): number {
  return rows.reduce((sum, row) => sum + pick(row), 0) / rows.length
}

const profileDir = join(WORK_DIR, 'cpu-profile')
const profiling = process.env.BENCH_CPU_PROF === '1'
if (profiling) {
  rmSync(profileDir, { recursive: true, force: true })
  mkdirSync(profileDir, { recursive: true })
}

const bare = await startBenchServer('bare-json-server.mjs', {}, [])
const api = await startBenchServer(
  'api-server.mjs',
  {},
  profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
)
let results: Map<string, Run[]>
let targets: Target[]
try {
  const { fileIds } = await seedThroughApi(api.url, api.token, { groups: 10, files: 10 })
  targets = [
    { name: 'bare node:http JSON handler', url: `${bare.url}/`, pid: bare.pid },
    { name: '`GET /v3/groups/public` (10 groups)', url: `${api.url}/v3/groups/public`, token: api.token, pid: api.pid },
    {
      name: '`GET /v3/files/public/{id}`',
      url: `${api.url}/v3/files/public/${fileIds[0]}`,
      token: api.token,
      pid: api.pid,
    },
  ]
  // warm-up: lets the JIT compile the hot paths before anything is measured
  for (const target of targets) await drive({ ...target, seconds: 2, connections: CONNECTIONS })
  results = new Map(targets.map((target) => [target.name, []]))
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const figures = await driveAndTime(target, SECONDS / ROUNDS)
      if (figures.failures > 0) throw new Error(`${target.name}: ${figures.failures} failed requests`)
      results.get(target.name)!.push(figures)
    }
  }
} finally {
  await Promise.all([bare.stop(), api.stop()])
}

const baseRuns = results.get(targets[0]!.name)!
const baseline = mean(baseRuns, (r) => r.requestsPerSecond)
const baselineCpu = mean(baseRuns, (r) => r.cpuMicros)
const rows = targets.map((target) => {
  const runs = results.get(target.name)!
  const rate = mean(runs, (r) => r.requestsPerSecond)
  const cpu = mean(runs, (r) => r.cpuMicros)
  const ratio = rate / baseline
  const verdict = target === targets[0] ? 'baseline' : ratio >= TARGET_RATIO ? 'met' : 'missed'
  const ms = (pick: (r: Run) => number) => mean(runs, pick).toFixed(1)
  return `| ${target.name} | ${rate.toFixed(0)} | ${ms((r) => r.p50Ms)} | ${ms((r) => r.p99Ms)} | ${ratio.toFixed(2)} (${verdict}) | ${cpu.toFixed(0)} | ${(baselineCpu / cpu).toFixed(2)} |`
})
console.log(
  [
    `${CONNECTIONS} connections, no pipelining, ${SECONDS} s per target in ${ROUNDS} alternating rounds after a 2 s warm-up; Pinfold with memory storage, one valid HS256 bearer token. Server CPU time per request (from /proc) is the steadier figure on a shared machine.`,
    '',
    `| target | req/s | p50 ms | p99 ms | req/s ÷ bare handler (target ≥ ${TARGET_RATIO}) | server CPU µs per request | bare CPU ÷ this CPU per request |`,
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'),
)

if (profiling) {
  const { functions, places } = hotSpots(profileDir)
  const table = (title: string, spots: { where: string; share: number }[]) => [
    `| ${title} | share of busy time |`,
    '|---|---|',
    ...spots.map((s) => `| ${s.where} | ${(s.share * 100).toFixed(1)} % |`),
  ]
  console.log(
    [
      '',
      'Pinfold server CPU profile (self time):',
      '',
      ...table('function', functions),
      '',
      ...table('code', places),
    ].join('\n'),
  )
}
