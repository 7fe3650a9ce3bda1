/**
 * Soak: `SOAK_SECONDS` (default 600) of mixed concurrent load (lib/soak-load.ts) against one
 * `pinfold serve`, then against two on one PostgreSQL sharing one blob directory (the data
 * directory of both: docs/deployment.md, "a shared filesystem also works"), every request sent to
 * an instance picked at random. Every `SOAK_SAMPLE_SECONDS` (default 10) each server's RSS, open
 * file descriptors and event-loop delay are sampled. The server exposes no event-loop figure, so
 * the delay is measured from outside: the time curl takes for `GET /healthz`, which touches no
 * store, so what it waits for is the event loop (and loopback). Goals: RSS growth ≤ 50 MB after the
 * warm-up, descriptors back where they were once the load stops, no 5xx, and every file the load
 * created listed exactly once afterwards, none it deleted.
 *
 * Needs PostgreSQL: `BENCH_DATABASE_URL` or `TEST_DATABASE_URL` (a database `pinfold_soak_<pid>` is
 * created and dropped); without one the bench says so and measures nothing.
 * SOAK_SECONDS, SOAK_SAMPLE_SECONDS, SOAK_WORKERS (default 8), SOAK_INSTANCES (default `1,2`). Every
 * sample is kept in bench/.work/soak-samples-<instances>.json.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { WORK_DIR } from './lib/bench-file.js'
import { benchToken, type CliServer, fdKindChanges, fdKinds, openFds, startCliServer } from './lib/cli-server.js'
import { curlDownload } from './lib/download.js'
import { freshDatabase } from './lib/fresh-database.js'
import { rssMb, startBenchServer } from './lib/process.js'
import { checkLedger, type LedgerEntry, runMixedLoad } from './lib/soak-load.js'

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600)
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 10)
const WORKERS = Number(process.env.SOAK_WORKERS ?? 8)
const INSTANCES = (process.env.SOAK_INSTANCES ?? '1,2').split(',').map(Number)
/** The first minute (or fifth of a short run) fills caches, pools and JIT: growth is counted after it. */
const WARMUP_SECONDS = Math.min(60, Math.round(SECONDS / 5))
/** pg's pool closes an idle connection after 10 s, undici's a kept-alive socket after 4 s. */
const SETTLE_MS = 15_000
const GOAL_RSS_GROWTH_MB = 50
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL

const KEPT_ALIVE = 'client connection ESTABLISHED'
const portOf = (server: CliServer) => Number(new URL(server.url).port)

interface Sample {
  at: number
  rss: number
  fds: number
  /** `GET /healthz` round trip, ms: the event-loop delay as a client sees it. */
  healthzMs: number
  /** The same probe of a bare node:http server at the same moment: what the machine alone adds. */
  bareMs: number
}

async function sampleOnce(server: CliServer, bareUrl: string, started: number): Promise<Sample> {
  const probes: number[] = []
  const bare: number[] = []
  const roundTrip = async (url: string) => (await curlDownload(url)).totalSeconds * 1000
  for (let i = 0; i < 3; i++) {
    probes.push(await roundTrip(`${server.url}/healthz`))
    bare.push(await roundTrip(bareUrl))
  }
  return {
    at: (Date.now() - started) / 1000,
    rss: rssMb(server.pid),
    fds: openFds(server.pid),
    healthzMs: Math.max(...probes),
    bareMs: Math.max(...bare),
  }
}

/** Least-squares slope of RSS over the samples, times their span: growth with the noise averaged out. */
function rssTrend(samples: Sample[]): number {
  if (samples.length < 2) return 0
  const n = samples.length
  const meanAt = samples.reduce((sum, sample) => sum + sample.at, 0) / n
  const meanRss = samples.reduce((sum, sample) => sum + sample.rss, 0) / n
  let covariance = 0
  let variance = 0
  for (const sample of samples) {
    covariance += (sample.at - meanAt) * (sample.rss - meanRss)
    variance += (sample.at - meanAt) ** 2
  }
  return (covariance / variance) * (samples.at(-1)!.at - samples[0]!.at)
}

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

/** Files left in the shared data directory's temp and staging folders. */
async function leftovers(dataDir: string): Promise<number> {
  let count = 0
  for (const folder of ['.tmp', '.staged'])
    count += (await readdir(join(dataDir, 'blobs', folder)).catch(() => [])).length
  return count
}

async function phase(instances: number, bareUrl: string): Promise<string[]> {
  const database = await freshDatabase(DATABASE_URL!, `pinfold_soak_${process.pid}`)
  const dataDir = join(WORK_DIR, 'soak', `${instances}-instances`)
  await rm(dataDir, { recursive: true, force: true })
  await mkdir(dataDir, { recursive: true })
  const env = { DATABASE_URL: database.url, PINFOLD_DATA_DIR: dataDir }
  const servers: CliServer[] = []
  try {
    // one after the other: the second finds the migrations applied
    for (let i = 0; i < instances; i++) servers.push(await startCliServer(env))
    const token = await benchToken()
    const started = Date.now()
    const samples = servers.map(() => [] as Sample[])
    const fdsBefore = servers.map((server) => openFds(server.pid))
    const kindsBefore = servers.map((server) => fdKinds(server.pid, portOf(server)))

    const big = randomBytes(4 * 1024 * 1024)
    const form = new FormData()
    form.set('file', new Blob([big]), 'soak-big.bin')
    form.set('network', 'public')
    const uploaded = await fetch(`${servers[0]!.url}/v3/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    const { data } = (await uploaded.json()) as { data: { id: string; cid: string } }
    const bigSha = createHash('sha256').update(big).digest('hex')
    // busy for good: the load reads it by CID and never renames or deletes it
    const ledger = new Map<string, LedgerEntry>([
      [data.id, { id: data.id, cid: data.cid, name: 'soak-big.bin', sha256: bigSha, deleted: false, busy: true }],
    ])

    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        for (const [i, server] of servers.entries()) samples[i]!.push(await sampleOnce(server, bareUrl, started))
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_SECONDS * 1000))
      }
    })()
    const tally = await runMixedLoad(
      { urls: servers.map((server) => server.url), token, big: { cid: data.cid, sha256: bigSha } },
      ledger,
      { workers: WORKERS, until: started + SECONDS * 1000 },
    )
    sampling = false
    await sampler
    const endSamples = servers.map((server) => sampleOnce(server, bareUrl, started))
    const atEnd = await Promise.all(endSamples)
    const check = await checkLedger(servers[0]!.url, token, ledger)
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
    const fdsAfter = servers.map((server) => openFds(server.pid))
    const kindsAfter = servers.map((server) => fdKinds(server.pid, portOf(server)))
    const temp = await leftovers(dataDir)
    const load = loadavg()[0]!.toFixed(1)

    const lines: string[] = []
    const seconds = (Date.now() - started) / 1000
    const ops = [...tally.statuses].sort(([a], [b]) => a.localeCompare(b))
    lines.push(
      `**${instances === 1 ? 'One server' : `${instances} servers, one PostgreSQL, one shared blob directory`}** — ${SECONDS} s of load, ${WORKERS} concurrent clients, ${tally.requests} requests (${(tally.requests / SECONDS).toFixed(0)}/s), load average ${load} at the end. Answers: ${ops.map(([op, n]) => `${op} × ${n}`).join(', ')}.`,
      '',
      `| server | RSS MB at start / after warm-up (${WARMUP_SECONDS} s) / peak after / end | RSS growth after warm-up, MB (goal ≤ ${GOAL_RSS_GROWTH_MB}) | open fds before load / min–max during / after load + ${SETTLE_MS / 1000} s | RSS trend after warm-up (least squares over the samples) / growth over the second half, MB | \`/healthz\` ms, p50 / p99 / max of the samples | bare node:http, same probes, p50 / p99 / max ms | failed requests logged by the server |`,
      '|---|---|---|---|---|---|---|---|',
    )
    const verdicts: string[] = []
    for (const [i, server] of servers.entries()) {
      const all = samples[i]!
      const warm = all.find((sample) => sample.at >= WARMUP_SECONDS) ?? all.at(-1)!
      const after = all.filter((sample) => sample.at >= WARMUP_SECONDS)
      const end = atEnd[i]!
      const growth = end.rss - warm.rss
      const peak = Math.max(...after.map((sample) => sample.rss), end.rss)
      const fds = all.map((sample) => sample.fds)
      const delays = all.map((sample) => sample.healthzMs)
      const bare = all.map((sample) => sample.bareMs)
      const spread = (values: number[]) =>
        `${percentile(values, 0.5).toFixed(1)} / ${percentile(values, 0.99).toFixed(1)} / ${Math.max(...values).toFixed(1)}`
      // the load's own kept-alive connections are the client's to close (undici keeps them for the
      // 65 s the server's Keep-Alive allows): every other descriptor must be back where it was
      const kept = kindsAfter[i]!.get(KEPT_ALIVE) ?? 0
      const fdFlat = fdsAfter[i]! - kept <= fdsBefore[i]! - (kindsBefore[i]!.get(KEPT_ALIVE) ?? 0)
      if (growth > GOAL_RSS_GROWTH_MB) verdicts.push(`server ${i + 1}: RSS grew ${growth.toFixed(0)} MB`)
      if (!fdFlat) {
        const changes = fdKindChanges(kindsBefore[i]!, kindsAfter[i]!).join(', ')
        verdicts.push(`server ${i + 1}: ${fdsAfter[i]} fds after the load, ${fdsBefore[i]} before (${changes})`)
      }
      if (server.failures.length > 0) verdicts.push(`server ${i + 1}: ${server.failures.length} failed requests logged`)
      if (server.errors.length > 0) verdicts.push(`server ${i + 1}: ${server.errors.length} other errors logged`)
      lines.push(
        `| ${i + 1} | ${all[0]!.rss.toFixed(0)} / ${warm.rss.toFixed(0)} / ${peak.toFixed(0)} / ${end.rss.toFixed(0)} | ${growth.toFixed(0)} (${growth <= GOAL_RSS_GROWTH_MB ? 'met' : 'missed'}) | ${fdsBefore[i]} / ${Math.min(...fds)}–${Math.max(...fds)} / ${fdsAfter[i]}, ${kept} of them kept-alive load connections (${fdFlat ? 'flat' : 'leak?'}) | ${rssTrend([...after, end]).toFixed(0)} / ${(end.rss - (all.find((sample) => sample.at >= SECONDS / 2) ?? end).rss).toFixed(0)} | ${spread(delays)} | ${spread(bare)} | ${server.failures.length} |`,
      )
    }
    if (tally.serverErrors > 0) verdicts.push(`${tally.serverErrors} 5xx answers`)
    if (tally.unexpectedCount > 0) verdicts.push(`${tally.unexpectedCount} unexpected answers`)
    if (check.lost.length + check.duplicates.length + check.unknown.length + check.wrong.length > 0) {
      verdicts.push(
        `records: ${check.lost.length} lost, ${check.duplicates.length} listed twice, ${check.unknown.length} unknown, ${check.wrong.length} wrong`,
      )
    }
    if (temp > 0) verdicts.push(`${temp} temp/staging files left in the blob directory`)
    lines.push(
      '',
      `Records afterwards (listed through the API, all pages): ${check.listed} listed, ${check.live} expected; ${check.lost.length} lost, ${check.duplicates.length} listed twice, ${check.unknown.length} unknown to the load, ${check.wrong.length} with another name or CID, deleted ones listed: ${check.wrong.filter((w) => w.includes('deleted')).length}. 5xx answers: ${tally.serverErrors}; other unexpected answers: ${tally.unexpectedCount - tally.serverErrors}; requests without an answer: ${tally.networkErrors}. Temp and staging files left: ${temp}. ${seconds.toFixed(0)} s in all.`,
    )
    if (tally.unexpected.length > 0)
      lines.push('', 'Unexpected answers (first ones):', '', ...tally.unexpected.map((u) => `- ${u}`))
    lines.push('', `Samples every ${SAMPLE_SECONDS} s (one row a minute; RSS MB, fds, \`/healthz\` ms per server):`, '')
    lines.push(
      `| s | ${servers.map((_, i) => `server ${i + 1}`).join(' | ')} |`,
      `|---|${servers.map(() => '---|').join('')}`,
    )
    const everyMinute = Math.max(1, Math.round(60 / SAMPLE_SECONDS))
    for (let row = 0; row < samples[0]!.length; row += everyMinute) {
      const cells = samples.map((list) => {
        const s = list[row]
        return s
          ? `${s.rss.toFixed(0)} MB, ${s.fds} fds, ${s.healthzMs.toFixed(1)} ms (bare ${s.bareMs.toFixed(1)})`
          : ''
      })
      lines.push(`| ${samples[0]![row]!.at.toFixed(0)} | ${cells.join(' | ')} |`)
    }
    await writeFile(
      join(WORK_DIR, `soak-samples-${instances}.json`),
      JSON.stringify(samples.map((list, i) => [...list, atEnd[i]])),
    )
    lines.push('', verdicts.length === 0 ? 'Every goal met.' : `**Missed**: ${verdicts.join('; ')}.`, '')
    for (const server of servers)
      for (const line of [...server.failures, ...server.errors].slice(0, 5)) console.error(line)
    return lines
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    await database.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

if (!DATABASE_URL) {
  console.log(
    'No `BENCH_DATABASE_URL` or `TEST_DATABASE_URL`: the soak needs a PostgreSQL server and measured nothing.',
  )
} else {
  const out: string[] = [
    `Every request goes to an instance picked at random; event-loop delay is measured from outside as the round trip of \`GET /healthz\` (curl, new connection; the worst of 3 probes per sample), since the server exposes no event-loop figure; the same probe of a bare node:http server at the same moments shows what the machine (2 cores shared with other work) adds by itself. Records in PostgreSQL 15, blobs on the local filesystem (the data directory both instances share).`,
    '',
  ]
  const bare = await startBenchServer('bare-json-server.mjs')
  try {
    for (const instances of INSTANCES) out.push(...(await phase(instances, bare.url)))
  } finally {
    await bare.stop()
  }
  console.log(out.join('\n'))
}
