import { readFileSync } from 'node:fs'

/** A process that started this one, identified beyond its PID (PIDs are reused). */
export interface Launcher {
  pid: number
  /** Start time in clock ticks since boot (`/proc/<pid>/stat`, field 22). */
  startTime: number
}

/**
 * Calls `onGone` once when a process that launched this server through a package manager exits.
 *
 * `npx -y pnpm start` runs npx → sh → pnpm → sh → node. A SIGTERM to npx ends npx and its shell
 * but not pnpm, which is reparented and keeps its child: the server ran on, holding the data
 * directory's lock. The server's own parent (pnpm's shell) is still there then, so neither watching
 * `process.ppid` nor a pipe to the parent notices; stdin is the terminal's and never closes. What
 * does notice is the chain: every ancestor up to the command the user ran, found as the first
 * ancestor that was not itself started by a package manager (its environment has no
 * `npm_lifecycle_event`, which npm, pnpm and yarn set for what they run). Each is watched by PID and
 * start time. Ancestors above it (the shell, tmux, a CI script) are not the launcher's business:
 * `nohup npx pnpm start &` in a script that exits keeps the server, as it kept npx.
 *
 * Only for a server started by a package manager: `node dist/cli.js serve` under systemd or a
 * shell has no such chain and is stopped by signals alone. Where `/proc` is missing (macOS), the
 * direct parent is watched by `process.ppid`, which changes when the parent exits.
 */
export function watchLaunchers(onGone: (launcher: Launcher) => void, intervalMs = 500): () => void {
  if (!process.env.npm_lifecycle_event) return () => {}
  const chain = launcherChain()
  const parent = process.ppid
  const timer = setInterval(() => {
    const gone = chain
      ? chain.find((launcher) => !isRunning(launcher))
      : process.ppid !== parent
        ? { pid: parent, startTime: 0 }
        : undefined
    if (!gone) return
    clearInterval(timer)
    onGone(gone)
  }, intervalMs)
  // watching must not keep a process alive that has nothing else to do
  timer.unref()
  return () => clearInterval(timer)
}

/** The ancestors to watch, nearest first; `undefined` without `/proc`. */
export function launcherChain(): Launcher[] | undefined {
  if (!readStat(process.pid)) return undefined
  const chain: Launcher[] = []
  let pid = process.ppid
  while (pid > 1) {
    const stat = readStat(pid)
    if (!stat) break
    chain.push({ pid, startTime: stat.startTime })
    if (!startedByPackageManager(pid)) break
    pid = stat.ppid
  }
  return chain
}

function isRunning(launcher: Launcher): boolean {
  return readStat(launcher.pid)?.startTime === launcher.startTime
}

function readStat(pid: number): { ppid: number; startTime: number } | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // the command name (field 2) is in parentheses and may hold spaces or ')': fields resume after the last ')'
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  // fields[0] is field 3 (state): ppid is field 4, starttime field 22
  return { ppid: Number(fields[1]), startTime: Number(fields[19]) }
}

function startedByPackageManager(pid: number): boolean {
  try {
    // the environment the process was started with, NUL-separated
    return readFileSync(`/proc/${pid}/environ`, 'latin1')
      .split('\0')
      .some((entry) => entry.startsWith('npm_lifecycle_event='))
  } catch {
    // another user's process: not one a package manager started for us
    return false
  }
}
