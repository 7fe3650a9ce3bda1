import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/**
 * Every `pinfold` process a test starts runs as one process (`--workers 1`, as `pinfold serve` ran
 * before it had workers) unless the test asks for more: N processes per server would multiply the
 * start-up cost of the process tests on a small machine, and their subject is not the cluster.
 */
process.env.PINFOLD_WORKERS ??= '1'

const source = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
const built = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

/**
 * How a `pinfold` child process starts: from source through tsx by default (what a change under
 * test is), or, with `PINFOLD_TEST_SERVER=dist`, the package's build as `npx pinfold` runs it. CI
 * sets `dist` after its build step: tsx compiles the module graph at every start (~10 s a start on
 * a loaded 2-core machine against ~4 s), and the crash harnesses and CLI tests start dozens.
 */
export function pinfoldArgs(args: readonly string[]): string[] {
  const mode = process.env.PINFOLD_TEST_SERVER ?? 'source'
  if (mode === 'dist') {
    if (!existsSync(built)) throw new Error(`PINFOLD_TEST_SERVER=dist: ${built} is missing (pnpm build)`)
    return [built, ...args]
  }
  if (mode !== 'source') throw new Error(`PINFOLD_TEST_SERVER must be source or dist, not ${mode}`)
  return ['--import', 'tsx', '--conditions=source', source, ...args]
}

export interface ChildServer {
  child: ChildProcess
  url: string
  /** Everything the process wrote to stdout so far. */
  stdout(): string
  /** The start-up log line (`pinfold listening`), parsed. */
  listening: Record<string, unknown>
}

/**
 * Runs `pinfold serve` in its own process and resolves once it logs that it listens. `options.node`:
 * another Node binary than this one (the IPFS node needs Node 22).
 */
export function startChildServer(env: Record<string, string>, options: { node?: string } = {}): Promise<ChildServer> {
  const child = spawn(options.node ?? process.execPath, pinfoldArgs(['serve']), {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  let stdout = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { message?: string; url?: string }
        if (entry.message === 'pinfold listening' && entry.url) {
          resolve({ child, url: entry.url, stdout: () => stdout, listening: entry })
        }
      } catch {}
    })
    child.once('exit', (code) =>
      reject(Object.assign(new Error(`pinfold exited with ${code}: ${stderr}`), { code, stderr })),
    )
  })
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}
