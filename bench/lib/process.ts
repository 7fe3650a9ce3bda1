import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
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
export async function startBenchServer(script: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', `bench/servers/${script}`], {
    cwd: root,
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
