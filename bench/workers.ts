/**
 * `pinfold serve --workers N` against one process, and against the practical limits:
 * - `GET /ipfs/{cid}` of a 1 KiB public file at 1 and N workers on memory (1 only: memory stores
 *   live in one process), embedded (PGlite owned by the primary, reached over IPC) and PostgreSQL
 *   (`BENCH_DATABASE_URL` or `TEST_DATABASE_URL`; skipped without), against a bare node:http server
 *   streaming the same file with `fs.createReadStream` (one process) and Debian's nginx serving it
 *   from disk with 1 and N worker processes (skipped when no nginx binary is installed);
 * - upload throughput: one 64 MiB multipart upload alone, and 2N of them at once, at 1 and N workers.
 * Rates are autocannon's (10 connections, keep-alive, in this process: on a small machine the load
 * generator takes a core of its own): the baselines in alternating rounds, then each Pinfold server
 * alone (one up at a time, as in gateway-small.ts); server CPU per request is the whole process
 * tree's (primary and workers) from /proc.
 *
 * BENCH_WORKERS (default the cores), BENCH_WORKERS_SECONDS (default 4) per target over 2 rounds,
 * BENCH_WORKERS_STORAGES (default `memory,embedded,postgres`), BENCH_WORKERS_UPLOAD_MIB (default 64).
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, openAsBlob, readdirSync, readFileSync } from 'node:fs'
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { benchFile } from './lib/bench-file.js'
import { benchToken, type CliServer, startCliServer } from './lib/cli-server.js'
import { freshSchema } from './lib/fresh-schema.js'
import { drive, type LoadFigures } from './lib/load.js'
import { cpuSeconds, startBenchServer } from './lib/process.js'

const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism())
const SECONDS = Number(process.env.BENCH_WORKERS_SECONDS ?? 4)
const ROUNDS = 2
const CONNECTIONS = 10
const STORAGES = (process.env.BENCH_WORKERS_STORAGES ?? 'memory,embedded,postgres').split(',')
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const UPLOAD_MIB = Number(process.env.BENCH_WORKERS_UPLOAD_MIB ?? 64)
const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((path) => existsSync(path))

interface Target {
  name: string
  url: string
  /** The process whose tree's CPU is this target's. */
  pid: number
}

/** CPU seconds of `pid` and every process below it (a cluster's workers, nginx's workers). */
function treeCpuSeconds(pid: number): number {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {} // gone meanwhile
  }
  const sum = (at: number): number => {
    let own = 0
    try {
      own = cpuSeconds(at)
    } catch {}
    return own + (children.get(at) ?? []).reduce((total, child) => total + sum(child), 0)
  }
  return sum(pid)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** nginx serving `dir` on a port of its own with `workers` worker processes; stopped by `stop()`. */
async function startNginx(dir: string, workers: number): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), 'pinfold-bench-nginx-'))
  const port = await freePort()
  await writeFile(
    join(home, 'nginx.conf'),
    [
      'daemon off;',
      `worker_processes ${workers};`,
      `pid ${home}/nginx.pid;`,
      `error_log ${home}/error.log warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      '  sendfile on;',
      '  tcp_nopush on;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${home}/${t}_temp;`),
      `  server { listen 127.0.0.1:${port}; root ${dir}; location / { } }`,
      '}',
    ].join('\n'),
  )
  const args = ['-p', home, '-e', join(home, 'error.log'), '-c', join(home, 'nginx.conf')]
  execFileSync(NGINX!, ['-t', ...args], { stdio: 'pipe' })
  const child = spawn(NGINX!, args, { stdio: 'ignore' })
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/`).then(
        () => true,
        () => false,
      )
    )
      break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGQUIT')
      await exited
      await rm(home, { recursive: true, force: true })
    },
  }
}

async function startPinfold(storage: string, workers: number) {
  const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-bench-workers-'))
  const env: Record<string, string> = { PINFOLD_DATA_DIR: dataDir, PINFOLD_WORKERS: String(workers) }
  let drop = async () => {}
  if (storage === 'memory') env.PINFOLD_STORAGE = 'memory'
  if (storage === 'postgres') {
    // one schema per server: they all run until the end
    const database = await freshSchema(DATABASE_URL!, `workers_${workers}`)
    env.DATABASE_URL = database.url
    drop = database.drop
  }
  const server = await startCliServer(env)
  return {
    server,
    async stop() {
      await server.stop()
      await drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

async function upload(server: CliServer, token: string, path: string): Promise<{ cid: string }> {
  const form = new FormData()
  form.set('file', await openAsBlob(path), basename(path))
  form.set('network', 'public')
  const res = await fetch(`${server.url}/v3/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  const body = (await res.json()) as { data: { cid: string } }
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`)
  return body.data
}

/** MB/s of `count` uploads of `path` at once (the sum of their bytes over the time until the last ends). */
async function uploadRate(server: CliServer, token: string, path: string, count: number): Promise<number> {
  const started = performance.now()
  await Promise.all(Array.from({ length: count }, () => upload(server, token, path)))
  return (count * UPLOAD_MIB * 1024 * 1024) / 1e6 / ((performance.now() - started) / 1000)
}

const token = await benchToken()
const small = await benchFile(1024)
const big = await benchFile(UPLOAD_MIB * 1024 * 1024)
// nginx's workers run as an unprivileged user: the file goes where they may read it
const nginxDir = await mkdtemp(join(tmpdir(), 'pinfold-bench-nginx-root-'))
await chmod(nginxDir, 0o755)
await copyFile(small, join(nginxDir, basename(small)))
await chmod(join(nginxDir, basename(small)), 0o644)
await mkdir(join(nginxDir, 'empty'), { recursive: true })

const targets: Target[] = []
const stops: (() => Promise<void>)[] = []
const uploads: string[] = []
const runs = new Map<string, (LoadFigures & { cpuMicros: number })[]>()

/** A 1 s warm-up each, then `ROUNDS` alternating rounds over `measured`. */
async function measure(measured: Target[]): Promise<void> {
  for (const target of measured) {
    runs.set(target.name, [])
    await drive({ ...target, seconds: 1, connections: CONNECTIONS })
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of measured) {
      const before = treeCpuSeconds(target.pid)
      const figures = await drive({ ...target, seconds: SECONDS / ROUNDS, connections: CONNECTIONS })
      if (figures.failures > 0) throw new Error(`${target.name}: ${figures.failures} failed requests`)
      const cpuMicros = ((treeCpuSeconds(target.pid) - before) * 1e6) / Math.max(1, figures.requests)
      runs.get(target.name)!.push({ ...figures, cpuMicros })
    }
  }
}

try {
  const bare = await startBenchServer('bare-file-server.mjs')
  stops.push(bare.stop)
  targets.push({
    name: 'bare node:http `fs.createReadStream` (1 process)',
    url: `${bare.url}/${basename(small)}`,
    pid: bare.pid,
  })
  if (NGINX) {
    for (const workers of [1, WORKERS]) {
      const nginx = await startNginx(nginxDir, workers)
      stops.push(nginx.stop)
      targets.push({
        name: `nginx, ${workers} worker process(es)`,
        url: `${nginx.url}/${basename(small)}`,
        pid: nginx.pid,
      })
    }
  }
  await measure(targets)
  // one Pinfold server up at a time (idle ones cost memory and cache, and their log lines the load generator)
  for (const storage of STORAGES) {
    if (storage === 'postgres' && !DATABASE_URL) continue
    // memory stores live in one process: `--workers` above 1 is refused there
    for (const workers of storage === 'memory' ? [1] : [1, WORKERS]) {
      const { server, stop } = await startPinfold(storage, workers)
      try {
        const { cid } = await upload(server, token, small)
        const target = {
          name: `Pinfold ${storage}, --workers ${workers}`,
          url: `${server.url}/ipfs/${cid}`,
          pid: server.pid,
        }
        targets.push(target)
        await measure([target])
        if (storage !== 'memory') {
          const alone = await uploadRate(server, token, big, 1)
          const many = await uploadRate(server, token, big, 2 * WORKERS)
          uploads.push(
            `| ${storage} | ${workers} | ${alone.toFixed(0)} | ${many.toFixed(0)} (${2 * WORKERS} at once) |`,
          )
        }
      } finally {
        await stop()
      }
    }
  }
  const mean = (name: string, pick: (run: LoadFigures & { cpuMicros: number }) => number) =>
    runs.get(name)!.reduce((sum, run) => sum + pick(run), 0) / ROUNDS
  const bareRate = mean(targets[0]!.name, (r) => r.requestsPerSecond)
  const nginxN = targets.find((t) => t.name.startsWith(`nginx, ${WORKERS} `))
  const nginxRate = nginxN && mean(nginxN.name, (r) => r.requestsPerSecond)
  console.log(
    [
      `1 KiB \`GET /ipfs/{cid}\`, ${CONNECTIONS} connections, keep-alive, ${SECONDS} s per target in ${ROUNDS} rounds after a 1 s warm-up (the baselines alternating, then each Pinfold server alone, one up at a time); N = ${WORKERS}; load average ${loadavg()[0]!.toFixed(1)} at the end. CPU per request: the server's whole process tree.`,
      '',
      `| server | req/s | p99 ms | ÷ bare file server | ÷ nginx (${WORKERS} workers) | CPU µs/request |`,
      '|---|---|---|---|---|---|',
      ...targets.map((t) => {
        const rate = mean(t.name, (r) => r.requestsPerSecond)
        return `| ${t.name} | ${rate.toFixed(0)} | ${mean(t.name, (r) => r.p99Ms).toFixed(1)} | ${(rate / bareRate).toFixed(2)} | ${nginxRate ? (rate / nginxRate).toFixed(2) : 'no nginx'} | ${mean(t.name, (r) => r.cpuMicros).toFixed(0)} |`
      }),
      '',
      `Uploads of ${UPLOAD_MIB} MiB (multipart, filesystem blobs), MB/s:`,
      '',
      '| storage | workers | one upload | many at once, in all |',
      '|---|---|---|---|',
      ...uploads,
    ].join('\n'),
  )
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {})
  await rm(nginxDir, { recursive: true, force: true })
}
