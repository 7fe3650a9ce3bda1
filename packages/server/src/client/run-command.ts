import { isPinfoldError } from '@pinfold/core'
import { CliError } from './cli-error.js'
import type { ClientCommand, CommandIo } from './command-kit.js'

/**
 * Runs a client command and answers its exit code: 0, 2 for a usage mistake, 1 for anything else,
 * with one line on stderr and no stack trace (a file system error says its path and reason).
 */
export async function runClientCommand(command: ClientCommand, args: string[], io: CommandIo): Promise<number> {
  try {
    await command.run(args, io)
    return 0
  } catch (error) {
    io.stderr.write(`pinfold: ${describeError(error)}\n`)
    return error instanceof CliError ? error.exitCode : 1
  }
}

export function describeError(error: unknown): string {
  if (error instanceof CliError || isPinfoldError(error)) return error.message
  const system = error as NodeJS.ErrnoException
  if (system?.code === 'EEXIST' && system.path) return `${system.path} exists: pass --force to replace it`
  if (system?.code && system.path) return `${system.path}: ${system.code} ${system.syscall ?? ''}`.trim()
  if (system?.name === 'AbortError') return 'interrupted'
  return error instanceof Error ? error.message : String(error)
}
