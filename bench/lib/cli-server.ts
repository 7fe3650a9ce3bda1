import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { mintToken, SCOPES } from '@pinfold/core'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** A secret every instance of a benchmark shares, as several instances behind a balancer must. */
export const BENCH_SECRET = 'bench-secret-0123456789abcdef0123456789abcdef'

export interface CliServer {
  url: string
  pid: number
  child: ChildProcess
  /** `request failed` lines the server logged so far: one per 5xx answer, or error after the headers. */
  failures: string[]
  /** Other error lines (a sweep that failed, a shutdown that failed). */
  errors: string[]
  /** Everything written to stderr so far. */
  stderr(): string
  stop(): Promise<void>
}

/**
 * Starts the built `pinfold serve` (`packages/server/dist/cli.js`, no TypeScript loader, as in
 * production) with `env` on a free port and waits for its `pinfold listening` line. `wrap` puts a
 * command in front of node, e.g. `['prlimit', '--nofile=256', '--']`; `execArgv` are node's own flags
 * (e.g. `--cpu-prof`, which NODE_OPTIONS does not take).
 */
export async function startCliServer(
  env: Record<string, string>,
  wrap: string[] = [],
  execArgv: string[] = [],
): Promise<CliServer> {
  const [command, ...args] = [...wrap, process.execPath, ...execArgv, 'packages/server/dist/cli.js', 'serve']
  const child = spawn(command!, args, {
    cwd: root,
    // one process unless the benchmark asks for workers: the figures before `--workers` were one
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PINFOLD_AUTH_SECRET: BENCH_SECRET,
      PINFOLD_WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const failures: string[] = []
  const errors: string[] = []
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return
      const entry = JSON.parse(line) as { level?: string; message?: string; url?: string }
      if (entry.message === 'pinfold listening' && entry.url) resolve(entry.url)
      // a failed request is logged twice, as `request failed` (with the error) and as its `request` line
      if (entry.message === 'request failed') failures.push(line)
      else if (entry.level === 'error' && entry.message !== 'request') errors.push(line)
    })
    child.once('exit', (code) => reject(new Error(`pinfold serve exited with ${code}: ${stderr}`)))
  })
  return {
    url,
    pid: child.pid!,
    child,
    failures,
    errors,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** A bearer token with every scope for `sub`, signed with `BENCH_SECRET`. */
export function benchToken(sub = 'bench'): Promise<string> {
  return mintToken(BENCH_SECRET, { sub, scopes: SCOPES, expiresIn: '1d' })
}

/** Open file descriptors of a process (`/proc/<pid>/fd`). */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length
}

/**
 * What a process's descriptors point at, counted by kind, so a rise in `openFds` can say what it
 * is: TCP sockets by role and state (`client connection ESTABLISHED` to `serverPort`, `PostgreSQL
 * connection …`, `listening`), `pipe`, `anon_inode:[eventfd]`, or a file's path.
 */
export function fdKinds(pid: number, serverPort?: number): Map<string, number> {
  const tcp = tcpSockets()
  const kinds = new Map<string, number>()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`)
    } catch {
      continue // closed meanwhile
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1]
    const socket = inode === undefined ? undefined : tcp.get(inode)
    let kind = target.replace(/^(socket|pipe):\[\d+\]$/, '$1')
    if (socket) {
      const role =
        socket.state === 'LISTEN'
          ? 'listening'
          : socket.localPort === serverPort
            ? 'client connection'
            : socket.remotePort === 5432
              ? 'PostgreSQL connection'
              : `TCP to port ${socket.remotePort}`
      kind = socket.state === 'LISTEN' ? role : `${role} ${socket.state}`
    }
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
  }
  return kinds
}

const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
}

/** The machine's TCP sockets by inode, from `/proc/net/tcp` and `tcp6`. */
function tcpSockets(): Map<string, { localPort: number; remotePort: number; state: string }> {
  const sockets = new Map<string, { localPort: number; remotePort: number; state: string }>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      const port = (address: string) => Number.parseInt(address.split(':')[1]!, 16)
      sockets.set(fields[9]!, {
        localPort: port(fields[1]!),
        remotePort: port(fields[2]!),
        state: TCP_STATES[fields[3]!] ?? fields[3]!,
      })
    }
  }
  return sockets
}

/** The kinds whose count differs between two `fdKinds`, as `kind +n` / `kind -n`. */
export function fdKindChanges(before: Map<string, number>, after: Map<string, number>): string[] {
  const changes: string[] = []
  for (const kind of new Set([...before.keys(), ...after.keys()])) {
    const delta = (after.get(kind) ?? 0) - (before.get(kind) ?? 0)
    if (delta !== 0) changes.push(`${kind} ${delta > 0 ? '+' : ''}${delta}`)
  }
  return changes
}
