/**
 * Small objects through the gateway and the API, per storage, as ratios to bare node:http servers
 * measured in the same run, in alternating rounds (autocannon, keep-alive, one connection set):
 * - `GET /ipfs/{cid}` of 1 KiB, 64 KiB and 1 MiB public files against a bare server streaming the
 *   same file with `fs.createReadStream` (`servers/bare-file-server.mjs`), and of a 1 KiB file inside
 *   a folder (`/ipfs/{folder}/docs/page.txt`) against the 1 KiB file;
 * - the API's `GET /v3/files/public/{id}` with a bearer token against a bare handler doing the same
 *   jose HS256 check and a Map lookup (`servers/bare-jwt-json-server.mjs`);
 * - the file-bomb entity CAR (three levels of 64 links to one 1-byte raw leaf): time until the
 *   response ends (complete or cut by the work budget).
 * Storages: memory, embedded (PGlite + files) and PostgreSQL (`BENCH_DATABASE_URL` or
 * `TEST_DATABASE_URL`; skipped without), each the built `pinfold serve` in its own process. Server CPU
 * per request from /proc (Pinfold's process alone; PostgreSQL's own CPU is not in it).
 *
 * BENCH_SMALL_SECONDS (default 4) per target, split over 2 alternating rounds; BENCH_SMALL_STORAGES
 * (default `memory,embedded,postgres`); BENCH_CPU_PROF=1 profiles each Pinfold server.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { pbBlock, publicCarForm, rawBlock } from '@pinfold/testing/dag-builders'
import { carBytes } from '@pinfold/testing/uploads'
import { UnixFS } from 'ipfs-unixfs'
import { benchFile, WORK_DIR } from './lib/bench-file.js'
import { BENCH_SECRET, benchToken, type CliServer, startCliServer } from './lib/cli-server.js'
import { hotSpots } from './lib/cpu-profile.js'
import { freshSchema } from './lib/fresh-schema.js'
import { drive, type LoadFigures } from './lib/load.js'
import { cpuSeconds, startBenchServer } from './lib/process.js'

const SECONDS = Number(process.env.BENCH_SMALL_SECONDS ?? 4)
const ROUNDS = 2
const CONNECTIONS = 10
const STORAGES = (process.env.BENCH_SMALL_STORAGES ?? 'memory,embedded,postgres').split(',')
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const profiling = process.env.BENCH_CPU_PROF === '1'
const SIZES = [1024, 64 * 1024, 1024 * 1024]

interface Target {
  name: string
  url: string
  token?: string | undefined
  pid: number
  /** The row this one is a ratio to (its baseline); none for a baseline. */
  against?: string | undefined
}

interface Run extends LoadFigures {
  cpuMicros: number
}

const label = (size: number) => (size >= 1024 * 1024 ? `${size / 1024 / 1024} MiB` : `${size / 1024} KiB`)

async function driveAndTime(target: Target, seconds: number): Promise<Run> {
  const before = cpuSeconds(target.pid)
  const figures = await drive({ ...target, seconds, connections: CONNECTIONS })
  return { ...figures, cpuMicros: ((cpuSeconds(target.pid) - before) * 1e6) / Math.max(1, figures.requests) }
}

async function ok<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`)
  return body
}

async function upload(server: CliServer, token: string, form: FormData): Promise<{ id: string; cid: string }> {
  const res = await fetch(`${server.url}/v3/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return (await ok<{ data: { id: string; cid: string } }>(res)).data
}

function fileForm(bytes: Uint8Array, name: string): FormData {
  const form = new FormData()
  form.set('file', new Blob([bytes]), name)
  form.set('network', 'public')
  return form
}

/** Three levels of 64 links to one 1-byte raw leaf: 262,144 leaf references in 4 distinct blocks. */
async function fileBomb(): Promise<{ root: string; car: Uint8Array }> {
  let child = await rawBlock(new Uint8Array([0x78]))
  let size = 1n
  const blocks = [child]
  for (let level = 0; level < 3; level++) {
    const node = await pbBlock(
      new UnixFS({ type: 'file', blockSizes: Array.from({ length: 64 }, () => size) }),
      Array.from({ length: 64 }, () => ({ Hash: child.cid, Tsize: Number(size) })),
    )
    blocks.push(node)
    child = node
    size *= 64n
  }
  return { root: child.cid.toString(), car: await carBytes([child.cid], blocks) }
}

/** Seconds until the response to `url` ends, whether whole or cut, and the bytes that came. */
async function timeToEnd(url: string): Promise<{ seconds: number; bytes: number; status: number; cut: boolean }> {
  const started = performance.now()
  let bytes = 0
  let cut = false
  let status = 0
  try {
    const res = await fetch(url)
    status = res.status
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length
  } catch {
    cut = true // the server ended the connection: the budget ran out (before or after the headers)
  }
  return { seconds: (performance.now() - started) / 1000, bytes, status, cut }
}

async function startPinfold(
  storage: string,
  dataDir: string,
  profileDir: string,
): Promise<{
  server: CliServer
  drop(): Promise<void>
}> {
  const env: Record<string, string> = { PINFOLD_DATA_DIR: dataDir }
  let drop = async () => {}
  if (storage === 'memory') env.PINFOLD_STORAGE = 'memory'
  if (storage === 'postgres') {
    const database = await freshSchema(DATABASE_URL!, 'small')
    env.DATABASE_URL = database.url
    drop = database.drop
  }
  // the server exits on SIGTERM after closing, so the profile is written
  const server = await startCliServer(env, [], profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])
  return { server, drop }
}

const files = new Map<number, string>()
for (const size of SIZES) files.set(size, await benchFile(size))
const token = await benchToken()
const bareFiles = await startBenchServer('bare-file-server.mjs')
const bareJson = await startBenchServer('bare-jwt-json-server.mjs', { BENCH_SECRET })
const bomb = await fileBomb()
const sections: string[] = []
const summary: string[] = []

try {
  // the bare JSON handler holds the same record the API answers (seeded below from the API's answer)
  for (const storage of STORAGES) {
    if (storage === 'postgres' && !DATABASE_URL) {
      sections.push(`#### PostgreSQL\n\nskipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL`)
      continue
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-bench-small-'))
    const profileDir = join(WORK_DIR, `cpu-profile-small-${storage}`)
    if (profiling) {
      rmSync(profileDir, { recursive: true, force: true })
      mkdirSync(profileDir, { recursive: true })
    }
    const { server, drop } = await startPinfold(storage, dataDir, profileDir)
    let results: Map<string, Run[]>
    let targets: Target[]
    let bombEnd: Awaited<ReturnType<typeof timeToEnd>>
    try {
      const cids = new Map<number, string>()
      for (const size of SIZES) {
        cids.set(size, (await upload(server, token, fileForm(await readFile(files.get(size)!), `${size}.bin`))).cid)
      }
      const folder = new FormData()
      folder.append('file', new Blob([await readFile(files.get(1024)!)]), 'site/docs/page.txt')
      folder.append('file', new Blob(['<h1>bench</h1>']), 'site/index.html')
      folder.append('network', 'public')
      const folderCid = (await upload(server, token, folder)).cid
      const small = await upload(server, token, fileForm(new TextEncoder().encode('bench file\n'), 'bench.txt'))
      const record = await ok<{ data: unknown }>(
        await fetch(`${server.url}/v3/files/public/${small.id}`, { headers: { authorization: `Bearer ${token}` } }),
      )
      await ok(await fetch(`${bareJson.url}/__seed`, { method: 'POST', body: JSON.stringify(record.data) }))
      const bombRes = await fetch(`${server.url}/v3/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: publicCarForm(bomb.car),
      })
      await ok(bombRes)

      const pid = server.pid
      targets = []
      for (const size of SIZES) {
        const bare = `bare node:http \`fs.createReadStream\`, ${label(size)}`
        targets.push({ name: bare, url: `${bareFiles.url}/${basename(files.get(size)!)}`, pid: bareFiles.pid })
        targets.push({
          name: `\`GET /ipfs/{cid}\`, ${label(size)}`,
          url: `${server.url}/ipfs/${cids.get(size)}`,
          pid,
          against: bare,
        })
      }
      targets.push({
        name: '`GET /ipfs/{folder}/docs/page.txt`, 1 KiB',
        url: `${server.url}/ipfs/${folderCid}/docs/page.txt`,
        pid,
        against: targets[0]!.name,
      })
      const bareApi = 'bare node:http + jose HS256 + Map lookup'
      targets.push({ name: bareApi, url: `${bareJson.url}/v3/files/public/${small.id}`, token, pid: bareJson.pid })
      targets.push({
        name: '`GET /v3/files/public/{id}`',
        url: `${server.url}/v3/files/public/${small.id}`,
        token,
        pid,
        against: bareApi,
      })
      for (const target of targets) {
        const headers: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {}
        const res = await fetch(target.url, { headers })
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error(`${storage} ${target.name}: status ${res.status}`)
        await drive({ ...target, seconds: 1, connections: CONNECTIONS }) // warm-up
      }
      results = new Map(targets.map((target) => [target.name, []]))
      for (let round = 0; round < ROUNDS; round++) {
        for (const target of targets) {
          const figures = await driveAndTime(target, SECONDS / ROUNDS)
          if (figures.failures > 0) throw new Error(`${storage} ${target.name}: ${figures.failures} failed requests`)
          results.get(target.name)!.push(figures)
        }
      }
      bombEnd = await timeToEnd(`${server.url}/ipfs/${bomb.root}?format=car&dag-scope=entity`)
    } finally {
      await server.stop()
      await drop()
      await rm(dataDir, { recursive: true, force: true })
    }
    const mean = (name: string, pick: (run: Run) => number) => {
      const runs = results.get(name)!
      return runs.reduce((sum, run) => sum + pick(run), 0) / runs.length
    }
    const rows = targets.map((target) => {
      const rate = mean(target.name, (r) => r.requestsPerSecond)
      const cpu = mean(target.name, (r) => r.cpuMicros)
      const ratio = target.against ? (rate / mean(target.against, (r) => r.requestsPerSecond)).toFixed(2) : 'baseline'
      const cpuRatio = target.against ? (mean(target.against, (r) => r.cpuMicros) / cpu).toFixed(2) : ''
      if (target.against) summary.push(`| ${storage} | ${target.name} | ${ratio} | ${cpu.toFixed(0)} |`)
      return `| ${target.name} | ${rate.toFixed(0)} | ${mean(target.name, (r) => r.p99Ms).toFixed(1)} | ${ratio} | ${cpu.toFixed(0)} | ${cpuRatio} |`
    })
    sections.push(
      [
        `#### ${storage}`,
        '',
        '| target | req/s | p99 ms | req/s ÷ its baseline | server CPU µs/request | baseline CPU ÷ this |',
        '|---|---|---|---|---|---|',
        ...rows,
        '',
        `File-bomb entity CAR (\`?format=car&dag-scope=entity\`, 64×64×64 links to one 1-byte leaf): status ${bombEnd.status || 'none (connection closed)'}, ended after ${bombEnd.seconds.toFixed(2)} s (target ≤ 2 s), ${bombEnd.bytes} bytes, ${bombEnd.cut ? 'cut by the work budget' : 'complete'}.`,
      ].join('\n'),
    )
    if (profiling) {
      const { functions } = hotSpots(profileDir)
      sections.push(
        [
          '',
          `CPU profile, ${storage} (self time):`,
          '',
          ...functions.map((f) => `- ${f.where}: ${(f.share * 100).toFixed(1)} %`),
        ].join('\n'),
      )
    }
  }
} finally {
  await Promise.all([bareFiles.stop(), bareJson.stop()])
}

console.log(
  [
    `${CONNECTIONS} connections, keep-alive, no pipelining, ${SECONDS} s per target in ${ROUNDS} alternating rounds after a 1 s warm-up; one Pinfold process (the built \`pinfold serve\`), filesystem blobs except on memory. CPU per request from /proc: Pinfold's process only.`,
    '',
    '| storage | target | req/s ÷ baseline | CPU µs/request |',
    '|---|---|---|---|',
    ...summary,
    '',
    ...sections,
  ].join('\n'),
)
