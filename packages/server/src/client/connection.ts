import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { CliError } from './cli-error.js'

/** Where a client command sends its requests, and with which token. */
export interface Connection {
  /** The server's base URL, without a trailing slash. */
  readonly url: string
  readonly token: string
}

export interface ConnectionFlags {
  url?: string | undefined
  token?: string | undefined
  config?: string | undefined
}

/** The config file's shape: `{ "url": "https://files.example.com", "token": "…" }`, both optional. */
interface ConfigFile {
  url?: unknown
  token?: unknown
}

const LOCAL_SERVER = 'http://127.0.0.1:3000'

/**
 * Resolves the server URL and the token, each on its own, from the first place that has it:
 * the `--url`/`--token` flags, `PINFOLD_URL`/`PINFOLD_TOKEN`, the config file (`--config`,
 * `PINFOLD_CONFIG`, else `$XDG_CONFIG_HOME/pinfold/config.json`), and last what `pinfold serve`
 * leaves for a local user: `http://127.0.0.1:3000` and the development token in the data directory.
 */
export async function resolveConnection(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Connection> {
  // an empty variable counts as unset, as shells make it easy to set one to nothing
  const fromEnv = (name: string) => env[name] || undefined
  const named = flags.config ?? fromEnv('PINFOLD_CONFIG')
  const configPath = named ?? defaultConfigPath(env)
  const file = await readConfigFile(configPath, named !== undefined)
  const url = flags.url ?? fromEnv('PINFOLD_URL') ?? stringField(file, 'url', configPath) ?? LOCAL_SERVER
  const token =
    flags.token ??
    fromEnv('PINFOLD_TOKEN') ??
    stringField(file, 'token', configPath) ??
    (await readDevToken(join(fromEnv('PINFOLD_DATA_DIR') ?? '.pinfold', 'dev-token')))
  if (!token) {
    throw new CliError(
      'no token: pass --token, set PINFOLD_TOKEN, put "token" in the config file ' +
        `(${configPath}), or run this next to a local \`pinfold serve\` (it saves .pinfold/dev-token)`,
    )
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new CliError(`the server URL is not a URL: ${JSON.stringify(url)}`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new CliError(`the server URL must be http:// or https://, not ${parsed.protocol}`)
  return { url: parsed.href.replace(/\/+$/, ''), token }
}

function defaultConfigPath(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'pinfold', 'config.json')
}

/** A config file named explicitly must exist; the default one is optional. */
async function readConfigFile(path: string, named: boolean): Promise<ConfigFile | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if (!named && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new CliError(`cannot read the config file ${path}: ${(error as Error).message}`)
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object')
    return parsed as ConfigFile
  } catch (error) {
    throw new CliError(`the config file ${path} is not a JSON object: ${(error as Error).message}`)
  }
}

function stringField(file: ConfigFile | undefined, key: keyof ConfigFile, path: string): string | undefined {
  const value = file?.[key]
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value === '') throw new CliError(`"${key}" in ${path} must be a non-empty string`)
  return value
}

async function readDevToken(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim() || undefined
  } catch {
    return undefined
  }
}
