import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Peak resident set size of a process in MB (Linux `VmHWM`). */
export function peakRssMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : Number.NaN
}

/** Current resident set size of a process in MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : Number.NaN
}

/**
 * CPU time (user + system) a process has used so far, in seconds, from `/proc/<pid>/stat`. On a
 * shared machine a server's CPU time per request moves much less than its request rate.
 */
export function cpuSeconds(pid: number): number {
  // fields after the parenthesised command name; utime and stime are the 12th and 13th of them
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
}

/** `getconf CLK_TCK`: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100

/**
 * CPU time (user + system, seconds) of a process's main thread and of all its other threads
 * together (the thread pool's file writes and fsyncs, V8's GC and compiler threads), from
 * `/proc/<pid>/task/<tid>/stat`. Read before and after a phase; threads that ended in between are lost.
 */
export function threadCpuSeconds(pid: number): { main: number; others: number } {
  let main = 0
  let others = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8')
    } catch {
      continue // the thread ended while we listed them
    }
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
    const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
    if (task === String(pid)) main = seconds
    else others += seconds
  }
  return { main, others }
}

/**
 * Pins every thread of `pid` to `cpus` (a taskset list such as `'1'`, or `'0-1'` to free it again);
 * false where taskset or a second CPU is missing. Two servers compared on a small machine are
 * otherwise placed by the scheduler, which favoured the first started by ~8 % in an A/A run.
 */
export function pinProcess(pid: number, cpus: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export interface BenchServer {
  url: string
  token: string
  pid: number
  child: ChildProcess
  stop(): Promise<void>
}

/**
 * Starts `bench/servers/<script>` in its own Node process on the built packages (so its memory is
 * measured alone, without a TypeScript loader) and waits for the JSON line `{url, token}` it
 * prints when listening. Run `pnpm build` first (`pnpm bench` does).
 */
export async function startBenchServer(
  script: string,
  env: Record<string, string> = {},
  /** Node flags, e.g. `['--cpu-prof']`; the server runs on `dist/` with no TypeScript loader, as in production. */
  execArgv: string[] = [],
  /** Another built checkout whose server to run (a baseline build, for before/after in one run). */
  checkout: string = root,
): Promise<BenchServer> {
  const child = spawn(process.execPath, [...execArgv, `bench/servers/${script}`], {
    cwd: checkout,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)))
  })
  const { url, token } = JSON.parse(first) as { url: string; token: string }
  return {
    url,
    token,
    pid: child.pid!,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/**
 * Resets a process's peak RSS (`VmHWM`) to its current RSS (Linux: `5` into `/proc/<pid>/clear_refs`,
 * allowed for our own processes), so a peak can be read for one phase of a benchmark alone.
 */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5')
}
