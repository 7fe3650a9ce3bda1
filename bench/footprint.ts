/**
 * What a person gets from the README's start command: memory and start time of the embedded
 * default (PGlite + filesystem blobs), on the built server and through `npx -y pnpm@12.21.0 start`,
 * and whether a SIGTERM to that command stops the server. Baseline: the same built server with
 * `PINFOLD_STORAGE=memory`, measured in the same run.
 *
 * BENCH_FOOTPRINT_BEFORE=<dir>: also measures another checkout (installed and built, e.g. the
 * commit before a change) in the same run, alternating with this one, for before → after figures.
 * BENCH_FOOTPRINT_ROUNDS (default 2): rounds per checkout; the table gives min–max.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { WORK_DIR } from './lib/bench-file.js'
import { peakRssMb, rssMb } from './lib/process.js'
import { commandLine, isAlive, processTree } from './lib/process-tree.js'

const here = fileURLToPath(new URL('..', import.meta.url))
const ROUNDS = Number(process.env.BENCH_FOOTPRINT_ROUNDS ?? 2)
/** Time a started server is left alone before its idle memory is read. */
const SETTLE_MS = 3000
const GOALS = { firstPeak: 300, idle: 150, tree: 250, restartMs: 1500 }

interface Started {
  child: ChildProcess
  /** The process running `pinfold serve` (the child itself, or a descendant of the start command). */
  serverPid: number
  url: string
  /** From spawn to the first 200 of `/readyz`. */
  firstAnswerMs: number
}

interface Figures {
  firstPeak: number
  firstIdle: number
  firstMs: number
  restartMs: number
  idle: number
  restartPeak: number
  memoryIdle: number
  memoryMs: number
  treeIdle: number
  treeMs: number
  /** The processes of the start command and their idle RSS, for the record. */
  tree: string
  /** Seconds from SIGTERM to the start command until the server process was gone; Infinity if it stayed. */
  stopAfterSigterm: number
}

async function start(root: string, argv: string[], env: Record<string, string>): Promise<Started> {
  const started = performance.now()
  const [command, ...args] = argv
  const child = spawn(command!, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return // pnpm's own lines
      const entry = JSON.parse(line) as { message?: string; url?: string }
      if (entry.message === 'pinfold listening' && entry.url) resolve(entry.url)
    })
    child.once('exit', (code) => reject(new Error(`${argv.join(' ')} exited with ${code}: ${stderr}`)))
  })
  const answer = await fetch(`${url}/readyz`)
  if (answer.status !== 200) throw new Error(`/readyz answered ${answer.status}`)
  const firstAnswerMs = performance.now() - started
  const serverPid = processTree(child.pid!).find((pid) => / serve$/.test(commandLine(pid)) && isNode(pid))
  if (!serverPid) throw new Error(`no pinfold serve process under ${argv.join(' ')}`)
  return { child, serverPid, url, firstAnswerMs }
}

function isNode(pid: number): boolean {
  return /(^|\/)node /.test(`${commandLine(pid)} `)
}

async function stop(server: Started): Promise<void> {
  server.child.kill('SIGTERM')
  await exited(server.serverPid, 40_000)
}

/** Resolves once `pid` is gone, with the seconds it took; Infinity after `timeoutMs`. */
async function exited(pid: number, timeoutMs: number): Promise<number> {
  const started = performance.now()
  while (isAlive(pid)) {
    if (performance.now() - started > timeoutMs) return Number.POSITIVE_INFINITY
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return (performance.now() - started) / 1000
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS))

async function measure(root: string, label: string, round: number): Promise<Figures> {
  const dataDir = join(WORK_DIR, 'footprint', `${label}-${round}`)
  await rm(dataDir, { recursive: true, force: true })
  await mkdir(dataDir, { recursive: true })
  const cli = ['node', 'packages/server/dist/cli.js', 'serve']
  const env = { PINFOLD_DATA_DIR: dataDir }

  const first = await start(root, cli, env)
  await settle()
  const firstPeak = peakRssMb(first.serverPid)
  const firstIdle = rssMb(first.serverPid)
  await stop(first)

  const again = await start(root, cli, env)
  await settle()
  const idle = rssMb(again.serverPid)
  const restartPeak = peakRssMb(again.serverPid)
  await stop(again)

  const memory = await start(root, cli, { ...env, PINFOLD_STORAGE: 'memory' })
  await settle()
  const memoryIdle = rssMb(memory.serverPid)
  await stop(memory)

  // the README's command on the same (already initialized) data directory
  const readme = await start(root, ['npx', '-y', 'pnpm@12.21.0', 'start'], env)
  await settle()
  const members = processTree(readme.child.pid!)
  const rss = members.map((pid) => ({ pid, mb: rssMb(pid), command: commandLine(pid) }))
  const treeIdle = rss.reduce((sum, p) => sum + (Number.isNaN(p.mb) ? 0 : p.mb), 0)
  const tree = rss
    .filter((p) => p.mb > 5)
    .map((p) => `${shortCommand(p.command)} ${p.mb.toFixed(0)}`)
    .join(' → ')
  readme.child.kill('SIGTERM')
  const stopAfterSigterm = await exited(readme.serverPid, 15_000)
  // a server the signal did not stop still holds the data directory: end it for the next round
  if (stopAfterSigterm === Number.POSITIVE_INFINITY) {
    process.kill(readme.serverPid, 'SIGTERM')
    await exited(readme.serverPid, 40_000)
  }
  await rm(dataDir, { recursive: true, force: true })
  return {
    firstPeak,
    firstIdle,
    firstMs: first.firstAnswerMs,
    restartMs: again.firstAnswerMs,
    idle,
    restartPeak,
    memoryIdle,
    memoryMs: memory.firstAnswerMs,
    treeIdle,
    treeMs: readme.firstAnswerMs,
    tree,
    stopAfterSigterm,
  }
}

function shortCommand(command: string): string {
  if (command.startsWith('npm exec')) return 'npx'
  if (/\bpnpm( |$)/.test(command) && !command.startsWith('sh ')) return 'pnpm'
  if (command.startsWith('sh ')) return 'sh'
  if (command.includes('tsx')) return 'tsx'
  return 'node'
}

const checkouts: [string, string][] = [['this checkout', here]]
const before = process.env.BENCH_FOOTPRINT_BEFORE
if (before) {
  if (!existsSync(join(before, 'packages/server/dist/cli.js'))) throw new Error(`${before}: install and build it first`)
  checkouts.unshift(['before', before])
}
const results = new Map<string, Figures[]>(checkouts.map(([label]) => [label, []]))
const loads: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, root] of checkouts) {
    results.get(label)!.push(await measure(root, label.replace(/ /g, '-'), round))
    loads.push(loadavg()[0]!)
  }
}

const range = (values: number[], digits = 0) => {
  const [low, high] = [Math.min(...values), Math.max(...values)]
  if (!Number.isFinite(high)) return 'kept running'
  return low.toFixed(digits) === high.toFixed(digits)
    ? low.toFixed(digits)
    : `${low.toFixed(digits)}–${high.toFixed(digits)}`
}
const column = (label: string, pick: (f: Figures) => number, digits = 0) => range(results.get(label)!.map(pick), digits)
const rows: [string, (f: Figures) => number, number, string][] = [
  ['server peak RSS on first start (fresh data dir), MB', (f) => f.firstPeak, 0, `≤ ${GOALS.firstPeak}`],
  ['server RSS after the first start, idle, MB', (f) => f.firstIdle, 0, ''],
  ['server idle RSS after a restart, MB', (f) => f.idle, 0, `≤ ${GOALS.idle}`],
  ['server peak RSS of a restart, MB', (f) => f.restartPeak, 0, ''],
  ['RSS of the start command’s whole process tree, idle, MB', (f) => f.treeIdle, 0, `≤ ${GOALS.tree}`],
  ['restart to first answer (`/readyz` 200), s', (f) => f.restartMs / 1000, 2, `≤ ${GOALS.restartMs / 1000}`],
  ['first start to first answer, s', (f) => f.firstMs / 1000, 2, ''],
  ['start command to first answer, s', (f) => f.treeMs / 1000, 2, ''],
  ['SIGTERM to the start command → server gone, s', (f) => f.stopAfterSigterm, 1, 'gone'],
  ['baseline: `PINFOLD_STORAGE=memory`, idle RSS, MB', (f) => f.memoryIdle, 0, 'keep (~76)'],
  ['baseline: `PINFOLD_STORAGE=memory`, start to first answer, s', (f) => f.memoryMs / 1000, 2, ''],
]
const labels = checkouts.map(([label]) => label)
const ratio = (label: string) => {
  const figures = results.get(label)!
  return range(
    figures.map((f) => f.idle / f.memoryIdle),
    2,
  )
}
console.log(
  [
    `Built server (\`node packages/server/dist/cli.js serve\`) and the README's \`npx -y pnpm@12.21.0 start\`, each on a fresh data directory; idle figures ${SETTLE_MS / 1000} s after the first answer. ${ROUNDS} rounds${labels.length > 1 ? ', the checkouts alternating' : ''}, min–max; load average ${range(loads, 1)} during the run.`,
    '',
    `| figure | ${labels.join(' | ')} | goal |`,
    `|---|${labels.map(() => '---|').join('')}---|`,
    ...rows.map(
      ([name, pick, digits, goal]) =>
        `| ${name} | ${labels.map((l) => column(l, pick, digits)).join(' | ')} | ${goal} |`,
    ),
    `| embedded idle ÷ memory idle (restart) | ${labels.map(ratio).join(' | ')} | |`,
    '',
    ...labels.map((label) => `Start command's processes (${label}), idle RSS in MB: ${results.get(label)![0]!.tree}.`),
  ].join('\n'),
)
