import { spawn } from 'node:child_process'
import { pinfoldArgs } from '../support/child-server.js'

export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/**
 * `pinfold …` in its own process (from source or the build: `pinfoldArgs`), as a user runs it
 * (stdin closed, stdout and stderr pipes, so not a terminal). `onStderr` sees progress as it is
 * printed, to interrupt a transfer mid-way.
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string>,
  onStderr?: (text: string, child: ReturnType<typeof spawn>) => void,
): Promise<CliRun> {
  const child = spawn(process.execPath, pinfoldArgs(args), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
    onStderr?.(stderr, child)
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}
