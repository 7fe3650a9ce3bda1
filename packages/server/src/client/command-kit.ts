import { type ParseArgsConfig, parseArgs } from 'node:util'
import type { Network } from '@pinfold/core'
import { CliError } from './cli-error.js'

/**
 * A command that talks to a running server: its usage text, its flags (which shell completion
 * offers too) and what it does with its arguments.
 */
export interface ClientCommand {
  readonly usage: string
  readonly options: Readonly<Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>>
  run(args: string[], io: CommandIo): Promise<void>
}

/** What a terminal stream offers beyond a Writable (a pipe has neither). */
export type OutputStream = NodeJS.WritableStream &
  import('node:stream').Writable & { readonly isTTY?: boolean | undefined; readonly columns?: number | undefined }

export interface CommandIo {
  stdout: OutputStream
  stderr: OutputStream
  env: NodeJS.ProcessEnv
  /** Fires on Ctrl-C: transfers stop (a resumable upload keeps what the server has). */
  signal: AbortSignal
}

export const CONNECTION_HELP = `
Connection (each from the first place that has it):
  --url URL         the server (PINFOLD_URL, "url" in the config file; default http://127.0.0.1:3000)
  --token TOKEN     a bearer token (PINFOLD_TOKEN, "token" in the config file; default the local
                    server's .pinfold/dev-token)
  --config FILE     a JSON config file {"url": …, "token": …} (PINFOLD_CONFIG; default
                    $XDG_CONFIG_HOME/pinfold/config.json)`

export const connectionOptions = {
  url: { type: 'string' },
  token: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

export const networkOption = { network: { type: 'string', short: 'n' } } as const

export function parseNetwork(value: string | undefined, fallback: Network): Network
export function parseNetwork(value: string | undefined, fallback?: undefined): Network | undefined
export function parseNetwork(value: string | undefined, fallback?: Network): Network | undefined {
  if (value === undefined) return fallback
  if (value === 'public' || value === 'private') return value
  throw new CliError(`--network must be public or private; got ${JSON.stringify(value)}`, 2)
}

/** `k=v` pairs into an object; a pair without `=` is a usage mistake, not an empty value. */
export function parseKeyvalues(pairs: readonly string[] | undefined): Record<string, string> | undefined {
  if (!pairs || pairs.length === 0) return undefined
  const keyvalues: Record<string, string> = {}
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new CliError(`--keyvalue takes key=value; got ${JSON.stringify(pair)}`, 2)
    keyvalues[pair.slice(0, at)] = pair.slice(at + 1)
  }
  return keyvalues
}

export function parsePositiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new CliError(`${flag} must be a positive integer; got ${JSON.stringify(value)}`, 2)
  return n
}

/**
 * `parseArgs` with this CLI's manners: an unknown flag or a missing value is a usage error naming
 * the command's help, never a stack trace.
 */
type Options = NonNullable<ParseArgsConfig['options']>

export function parse<T extends Options>(
  command: string,
  args: string[],
  options: T,
): ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof connectionOptions & T; allowPositionals: true; strict: true }>
> {
  try {
    return parseArgs({ args, options: { ...connectionOptions, ...options }, allowPositionals: true, strict: true })
  } catch (error) {
    throw new CliError(`${(error as Error).message}\nRun \`pinfold ${command} --help\` for its options.`, 2)
  }
}
