import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * A container engine for the image test: podman (Debian's), or docker where a daemon answers. The
 * engine's own defaults do not always run a container on the machine it is on; `engineOptions`
 * finds the options that do, and says what it tried.
 */
export interface Engine {
  command: 'podman' | 'docker'
  /** Options before the subcommand (`podman --runtime runc …`). */
  global: string[]
  /** Options of `build` and `run` (resource limits). */
  limits: string[]
}

export const BASE_IMAGE = 'docker.io/library/node:22-bookworm-slim'
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url))

export interface Result {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs a command to its end; never throws for a non-zero exit (the result says it). A command past
 * its time is code 124, as timeout(1) says it: podman ends with 0 on the SIGTERM that ends it then.
 */
export function run(command: string, args: string[], timeoutMs = 60_000): Promise<Result> {
  return new Promise((resolve) => {
    const child = execFile(
      command,
      args,
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (child.killed) resolve({ code: 124, stdout, stderr: `${stderr}\n${command}: killed after ${timeoutMs} ms` })
        else if (!err) resolve({ code: 0, stdout, stderr })
        else if (typeof err.code === 'number') resolve({ code: err.code, stdout, stderr })
        else resolve({ code: 127, stdout, stderr: `${stderr}${err.message}` })
      },
    )
  })
}

/** The engine's command with its global options. */
export const engineRun = (engine: Engine, args: string[], timeoutMs?: number) =>
  run(engine.command, [...engine.global, ...args], timeoutMs)

/** The first engine that answers `info`, or why none does (the test is skipped then). */
export async function findEngine(): Promise<{ engine: Engine } | { reason: string }> {
  const tried: string[] = []
  for (const command of ['podman', 'docker'] as const) {
    const info = await run(command, ['info'], 120_000)
    if (info.code === 0) return { engine: { command, global: [], limits: [] } }
    tried.push(`${command}: ${lastLine(info.stderr) || `exit ${info.code}`}`)
  }
  return { reason: `no container engine answers (${tried.join('; ')})` }
}

/**
 * Options under which a container of the base image runs. Found here (a root podman in a VM whose
 * processes lack CAP_SYS_RESOURCE, cgroup v1 with cgroup2 mounted beside it):
 * - podman asks the runtime for its root defaults, 1048576 open files, which only CAP_SYS_RESOURCE
 *   may raise to: "setrlimit `RLIMIT_NOFILE`: Operation not permitted", so limits within this
 *   process's own are given instead;
 * - crun 1.8 refuses the hybrid cgroup layout ("cgroups in hybrid mode not supported, drop all
 *   controllers from cgroupv2"); runc (Debian's `runc` package) runs there.
 */
export async function engineOptions(engine: Engine): Promise<Engine> {
  const limits = ['--ulimit', `nofile=${openFilesLimit()}`, '--ulimit', 'nproc=4096:4096']
  const candidates: Engine[] = [engine]
  if (engine.command === 'podman') {
    candidates.push({ ...engine, limits })
    if ((await run('runc', ['--version'])).code === 0)
      candidates.push({ ...engine, global: ['--runtime', 'runc'], limits })
  }
  const tried: string[] = []
  for (const candidate of candidates) {
    const probe = await engineRun(candidate, ['run', '--rm', ...candidate.limits, BASE_IMAGE, 'node', '--version'])
    if (probe.code === 0) return candidate
    tried.push(`${[...candidate.global, ...candidate.limits].join(' ') || 'defaults'}: ${lastLine(probe.stderr)}`)
  }
  throw new Error(`${engine.command} answers but runs no container of ${BASE_IMAGE}:\n${tried.join('\n')}`)
}

/** This process's open-files limit, `soft:hard`, which a container may be given without privilege. */
function openFilesLimit(): string {
  const line = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
  const [soft, hard] = [line?.[1], line?.[2]].map((value) => (value && value !== 'unlimited' ? value : '65536'))
  return `${soft}:${hard}`
}

const lastLine = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1) ?? ''
