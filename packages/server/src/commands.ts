import cluster from 'node:cluster'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { mintOperatorToken, mintToken, SCOPES } from '@pinfold/core'
import type { RequestLogEntry } from '@pinfold/http'
import { batchedLines } from './batched-lines.js'
import { CliError } from './client/cli-error.js'
import type { ClientCommand } from './client/command-kit.js'
import { parseDuration } from './client/format.js'
import { describeError, runClientCommand } from './client/run-command.js'
import { WORKER_SLOT_VARIABLE } from './cluster/messages.js'
import { readConfig } from './config.js'
import { writeDevToken } from './dev-token.js'
import { dropCompiledAhead } from './embedded-database-wasm.js'
import { watchLaunchers } from './launcher-watch.js'
import { type LogLevel, logs, parseLogLevel } from './log-level.js'
import { preflight } from './preflight.js'
import { loadOrCreateSecret } from './secret.js'
import type { RunningServer } from './server.js'
import { type ConfigFileSettings, readServerConfigFile, withConfigFile } from './server-config-file.js'
import { releaseYoungGeneration } from './startup-heap.js'

const USAGE = `pinfold — self-hosted IPFS file storage speaking Pinata's v3 API

Usage:
  pinfold serve                 start the server (configuration from the environment)
  pinfold token [options]       mint a bearer token with the server's secret
  pinfold migrate               apply database migrations
  pinfold backup <dir>          copy the embedded default (database, blobs, secret) into <dir>
  pinfold restore <dir>         put such a backup into a fresh data directory

  pinfold upload <file|dir>     upload a file or a folder (resumable above 90 MiB), with progress
  pinfold ls                    list files, with filters
  pinfold get <cid> [-o PATH]   download a file, or a folder as its tree, verified against the CID
  pinfold get <cid> -a tar|car  the same as a TAR or the verified blocks (CAR)
  pinfold link <cid>            print a URL that serves it (a signed link for private content)
  pinfold rm <id|cid>...        delete files
  pinfold pin add|ls|rm         pin by CID: queue a DAG to fetch from the IPFS network, list, withdraw

  pinfold completion <shell>    print a completion script for bash, zsh or fish

Every command but completion takes --json (the answer as JSON on stdout; serve logs JSON lines
anyway) and exits 0 on success, 1 on a failure, 2 on a usage mistake; errors are one line on
stderr, with --json on serve, migrate, backup and restore a JSON one: {"error", "exit_code"}.

Examples:
  pinfold serve                                     a server on :3000, data in ./.pinfold
  pinfold upload ./site -n public                   a folder; prints its CID
  pinfold get bafy… -o site                         its tree, every block checked against the CID
  source <(pinfold completion bash)                 tab completion in this shell

Run \`pinfold <command> --help\` for a command's options.
`

const SERVE_USAGE = `Usage: pinfold serve [--config FILE] [--workers N] [--json]

Starts the server. Settings come from the environment (PORT, HOST, PINFOLD_DATA_DIR,
PINFOLD_STORAGE, DATABASE_URL, PINFOLD_S3_*, PINFOLD_PUBLIC_URL, PINFOLD_LOG_LEVEL, …) and, under
it, from a TOML config file: --config FILE, else PINFOLD_SERVER_CONFIG. In the file a setting is
named in lower case without PINFOLD_ (data_dir = "/var/lib/pinfold", [s3] bucket = "files");
docs/configuration.md lists the keys. An unknown key or a bad value stops the start with a message.
Ctrl-C or SIGTERM stops it after the requests in flight; a second signal stops it at once.

--workers N (PINFOLD_WORKERS) runs N processes on the one port, default one per core with
DATABASE_URL and 1 otherwise (PINFOLD_STORAGE=memory allows only 1); a worker that dies is started again. Log lines carry the worker's number.

Before creating anything it checks that PORT is free and PINFOLD_DATA_DIR writable.
Its log is JSON lines on stdout (the start line: {"message": "pinfold listening", "url", …}); with
--json a failure to start is JSON too, one line on stderr: {"error": "…", "exit_code": 1}.

Examples:
  pinfold serve                                     :3000 on 127.0.0.1, data in ./.pinfold
  PORT=8080 HOST=0.0.0.0 pinfold serve              another port, every interface
  pinfold serve --config /etc/pinfold/pinfold.toml  settings from a file
`

const TOKEN_USAGE = `Usage: pinfold token [options]

Mints a bearer token signed with the server's secret (PINFOLD_AUTH_SECRET, else the secret in the
data directory) and prints it.

Options:
  --sub USER          the token's user (default dev)
  --org ORG           the tenant (default the user)
  --scope "S1 S2"     space-separated scopes (default every one): ${SCOPES.join(', ')}
  --expires-in SPAN   lifetime: seconds, or 30s, 15m, 1h, 7d, 2w (default 1h); --expires is the same
  --operator          an operator token for the admin API (/admin/v1/…) instead of a tenant's: signed
                      under a key only the server's secret derives; takes --sub and --expires-in only
  --json              print {token, sub, org, scopes, expires_in} as JSON

Examples:
  pinfold token                                     a token for dev holding every scope, for an hour
  pinfold token --sub alice --org acme --scope "org:files:read" --expires-in 7d
`

const MIGRATE_USAGE = `Usage: pinfold migrate [--json]

Applies database migrations to DATABASE_URL, else to the embedded database in PINFOLD_DATA_DIR
(stop \`pinfold serve\` first: one process per data directory). With --json it prints one object,
{"target", "applied": [{"version", "name"}], "already_applied"}, and a failure as {"error", "exit_code"}
on stderr.
`

const BACKUP_USAGE = `Usage: pinfold backup <dir> [--json]

Copies the embedded default of PINFOLD_DATA_DIR (the PGlite database, the blob files, the signing
secret) into <dir>, which must not exist or be empty. Stop \`pinfold serve\` first: the embedded
database belongs to one process. Blob files are hard links when <dir> is on the same filesystem.
With DATABASE_URL or PINFOLD_S3_BUCKET, back those up instead (docs/deployment.md#backups).
With --json it prints {"command", "from", "into", "files", "bytes", "hard_linked", "ms"}, and a
failure as {"error", "exit_code"} on stderr.
`

const RESTORE_USAGE = `Usage: pinfold restore <dir> [--json]

Puts a backup made by \`pinfold backup\` into PINFOLD_DATA_DIR, which must hold no database, blobs
or secret. Nothing changes unless the whole backup is there, counted against its manifest. --json
as for backup.
`

/**
 * `--json` on the server commands: their result is one JSON object on stdout (`serve` logs JSON
 * lines already), and a failure one JSON line on stderr, `{"error", "exit_code"}`.
 */
const JSON_COMMANDS = new Set(['serve', 'migrate', 'backup', 'restore'])
let jsonOutput = false

async function main(argv: string[]): Promise<void> {
  const [command, ...given] = argv
  jsonOutput = command !== undefined && JSON_COMMANDS.has(command) && given.includes('--json')
  const rest = jsonOutput ? given.filter((arg) => arg !== '--json') : given
  const wantsHelp = rest.includes('--help') || rest.includes('-h')
  // `serve` keeps it held until it listens; every other command may need it grown at once (uploads)
  if (command !== 'serve') releaseYoungGeneration()
  if (command === 'serve') return wantsHelp ? void process.stdout.write(SERVE_USAGE) : serve(rest)
  if (command === 'token') return wantsHelp ? void process.stdout.write(TOKEN_USAGE) : token(rest)
  if (command === 'migrate') return wantsHelp ? void process.stdout.write(MIGRATE_USAGE) : migrateCommand(rest)
  if (command === 'backup') return wantsHelp ? void process.stdout.write(BACKUP_USAGE) : backupCommand('backup', rest)
  if (command === 'restore')
    return wantsHelp ? void process.stdout.write(RESTORE_USAGE) : backupCommand('restore', rest)
  // the client commands (tus-js-client, tar-stream, the CAR verifier…) are imported only when one runs, not by `serve`
  if (command === 'completion') {
    const { COMPLETION_USAGE, completionScript } = await import('./client/completion.js')
    if (wantsHelp) return void process.stdout.write(COMPLETION_USAGE)
    if (rest.length > 1) throw new CliError('completion takes one shell: bash, zsh or fish', 2)
    return void process.stdout.write(completionScript(rest[0]))
  }
  const { CLIENT_COMMANDS } = await import('./client/client-commands.js')
  const client = command === undefined ? undefined : CLIENT_COMMANDS[command]
  if (client) return runClient(client, rest)
  process.stdout.write(USAGE)
  if (command !== undefined && command !== 'help' && command !== '--help' && command !== '-h') {
    process.stderr.write(`pinfold: unknown command ${JSON.stringify(command)}\n`)
    process.exitCode = 2
  }
}

/** Ctrl-C stops a transfer cleanly (a resumable upload stays resumable); a second one exits at once. */
async function runClient(client: ClientCommand, args: string[]): Promise<void> {
  const interrupt = new AbortController()
  process.once('SIGINT', () => {
    interrupt.abort()
    process.once('SIGINT', () => process.exit(130))
  })
  const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: interrupt.signal }
  process.exitCode = await runClientCommand(client, args, io)
}

/** Commands that take no arguments say so, instead of ignoring a mistyped flag. */
function noArguments(command: string, args: string[]): void {
  if (args.length > 0)
    throw new CliError(`${command} takes no arguments (got ${args.join(' ')}); run \`pinfold ${command} --help\``, 2)
}

async function serve(args: string[]): Promise<void> {
  let values: { config?: string | undefined; workers?: string | undefined }
  try {
    ;({ values } = parseArgs({ args, options: { config: { type: 'string' }, workers: { type: 'string' } } }))
  } catch (error) {
    throw new CliError(`${(error as Error).message}\nRun \`pinfold serve --help\` for its options.`, 2)
  }
  const configPath = values.config ?? (process.env.PINFOLD_SERVER_CONFIG || undefined)
  const file: ConfigFileSettings = configPath ? await readServerConfigFile(configPath) : { env: {}, origin: {} }
  const env = withConfigFile(file, process.env)
  if (values.workers !== undefined) env.PINFOLD_WORKERS = values.workers
  const { config, level } = namingTheFile(file, () => ({
    config: readConfig(env),
    level: parseLogLevel(env.PINFOLD_LOG_LEVEL),
  }))
  logLevel = level
  if (config.databaseUrl || config.storage === 'memory') dropCompiledAhead()
  if (cluster.isWorker) return serveAsWorker(config, level).finally(releaseYoungGeneration)
  // before the server's modules load and before anything is created: a taken port or an unusable
  // data directory is one message within a second, not a listen error after a database was made
  await preflight(config)
  const running = config.workers > 1 ? await startWorkers(config) : await startAlone(config, level)
  releaseYoungGeneration()
  let stopping = false
  const stop = () => {
    // a second signal does not wait for uploads in flight
    if (stopping) process.exit(1)
    stopping = true
    log('info', 'shutting down: finishing requests in flight', { timeout_ms: config.shutdownTimeoutMs })
    void running.close().then(
      () => {
        log('info', 'stopped', {})
        process.exit(0)
      },
      (error: unknown) => {
        log('error', 'shutdown failed', { error: String(error) })
        process.exit(1)
      },
    )
  }
  // before the first log line: whoever waits for "listening" may signal at once
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // `npx pnpm start` whose npx was killed: stop as if signalled, rather than run on orphaned
  watchLaunchers((launcher) => {
    log('info', 'the command that started pinfold exited', { pid: launcher.pid })
    if (!stopping) stop()
  })
  log('info', 'pinfold listening', running.listening)
  // only with the data directory's own secret: a configured secret or JWKS means a real deployment
  if (!config.authSecret && !config.jwksUrl) {
    const devToken = await writeDevToken(config.dataDir, running.secret, config.jwtMaxLifetimeSeconds)
    log('info', 'development token (every scope) saved', {
      path: devToken.path,
      expires_at: devToken.expiresAt.toISOString(),
    })
  }
}

/** One process answers, as `--workers 1` (and every test's child server) runs. */
async function startAlone(config: ReturnType<typeof readConfig>, level: LogLevel) {
  const { startServer } = await import('./server.js')
  const running = await startServer(config, await serverLogging(level))
  return { listening: listeningFields(running), secret: running.secret, close: () => running.close() }
}

/** `--workers N`: this process supervises N workers and, on the embedded default, owns the database. */
async function startWorkers(config: ReturnType<typeof readConfig>) {
  const { startCluster } = await import('./cluster/primary.js')
  return startCluster(config, log)
}

/**
 * A worker of `--workers N`. The primary stops it with SIGTERM (which drains it as one process
 * drains); Ctrl-C in a terminal signals every process of the group, so a repeated signal changes
 * nothing here: the primary, signalled twice, is what stops everything at once.
 */
async function serveAsWorker(config: ReturnType<typeof readConfig>, level: LogLevel): Promise<void> {
  workerSlot = Number(process.env[WORKER_SLOT_VARIABLE])
  const [{ startServer }, { workerRole }] = await Promise.all([
    import('./server.js'),
    import('./cluster/worker-link.js'),
  ])
  const worker = workerRole(workerSlot, !config.databaseUrl && config.storage === 'embedded')
  const running = await startServer(config, { ...(await serverLogging(level)), worker })
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    void running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log('error', 'shutdown failed', { error: String(error) })
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  if (worker.runsJobs) {
    const jobs = ['expiry sweep', 'orphan blob sweep', 'upload session sweep']
    if (config.pinning.pollIntervalMs > 0 && config.pinning.jobs > 0) jobs.push('pin jobs')
    if (config.ipfs) jobs.push('ipfs node')
    log('info', 'background jobs run in this worker', { jobs })
  }
  worker.listening(listeningFields(running))
}

/** The request log (JSON lines on stdout, with the worker's number in a cluster) and the error log. */
async function serverLogging(level: LogLevel) {
  const { jsonLinesLogger } = await import('@pinfold/http')
  // request lines are written once per event-loop turn; whatever is pending goes out on exit
  const requestLines = batchedLines((text) => process.stdout.write(text))
  process.once('exit', requestLines.flush)
  const requests = jsonLinesLogger(requestLines.write)
  const tagged = <T extends object>(entry: T) => (workerSlot === undefined ? entry : { ...entry, worker: workerSlot })
  return {
    // no URL: its query may hold a signature; the request log line names the route
    onError: (error: unknown, request: Request) =>
      log('error', 'request failed', { method: request.method, error: String(error) }),
    logger: {
      info: (entry: RequestLogEntry) => logs(level, 'info') && requests.info(tagged(entry)),
      error: (entry: RequestLogEntry) => requests.error(tagged(entry)),
    },
  }
}

function listeningFields(running: RunningServer): Record<string, unknown> {
  const ipfs = running.ipfs?.peer()
  return {
    url: running.url,
    console: `${running.url}/console/`,
    storage: running.storage,
    ...(ipfs && { ipfs: { peer_id: ipfs.peerId, addrs: ipfs.addrs, dht: ipfs.dht?.mode ?? 'off' } }),
  }
}

async function migrateCommand(args: string[]): Promise<void> {
  noArguments('migrate', args)
  const config = readConfig()
  if (!config.databaseUrl && config.storage === 'memory') {
    const none = 'PINFOLD_STORAGE=memory and no DATABASE_URL: there is no database to migrate'
    process.stdout.write(jsonOutput ? `${JSON.stringify({ target: null, applied: [], message: none })}\n` : `${none}\n`)
    return
  }
  const target = config.databaseUrl ? 'the PostgreSQL database of DATABASE_URL' : join(config.dataDir, 'db')
  if (!jsonOutput) process.stdout.write(`Migrating ${target}\n`)
  const { runMigrations } = await import('./migrate-command.js')
  const applied: { version: number; name: string }[] = []
  let upToDate = 0
  await runMigrations(config, ({ version, name, state }) => {
    if (state === 'applied') applied.push({ version, name })
    if (state === 'skipped') upToDate += 1
    if (jsonOutput) return
    const label = `  ${String(version).padStart(4, '0')} ${name}`
    if (state === 'applying') process.stdout.write(`${label} … `)
    else process.stdout.write(state === 'applied' ? 'applied\n' : 'already applied\n')
  })
  if (jsonOutput) {
    process.stdout.write(`${JSON.stringify({ target, applied, already_applied: upToDate })}\n`)
    return
  }
  process.stdout.write(
    applied.length === 0 ? 'Up to date: nothing to apply\n' : `Applied ${applied.length} migration(s)\n`,
  )
}

async function backupCommand(command: 'backup' | 'restore', args: string[]): Promise<void> {
  const [dir, ...extra] = args
  if (dir === undefined || dir.startsWith('-') || extra.length > 0) {
    throw new CliError(
      `${command} takes one directory (got ${args.join(' ') || 'none'}); run \`pinfold ${command} --help\``,
      2,
    )
  }
  const config = readConfig()
  const { backupDataDir, restoreDataDir } = await import('./backup-command.js')
  const started = Date.now()
  const { files, bytes, linked } =
    command === 'backup' ? await backupDataDir(config, dir) : await restoreDataDir(config, dir)
  const ms = Date.now() - started
  if (jsonOutput) {
    const [from, into] = command === 'backup' ? [config.dataDir, dir] : [dir, config.dataDir]
    process.stdout.write(`${JSON.stringify({ command, from, into, files, bytes, hard_linked: linked, ms })}\n`)
    return
  }
  const what =
    command === 'backup' ? `Backed up ${config.dataDir} into ${dir}` : `Restored ${dir} into ${config.dataDir}`
  process.stdout.write(`${what}: ${files} files, ${bytes} bytes (${linked} blob files hard-linked) in ${ms} ms\n`)
}

async function token(args: string[]): Promise<void> {
  let values: {
    sub: string
    org?: string | undefined
    scope: string
    'expires-in'?: string | undefined
    expires?: string | undefined
    operator?: boolean | undefined
    json?: boolean | undefined
  }
  try {
    ;({ values } = parseArgs({
      args,
      options: {
        sub: { type: 'string', default: 'dev' },
        org: { type: 'string' },
        scope: { type: 'string', default: SCOPES.join(' ') },
        'expires-in': { type: 'string' },
        expires: { type: 'string' },
        operator: { type: 'boolean' },
        json: { type: 'boolean' },
      },
    }))
  } catch (error) {
    throw new CliError(`${(error as Error).message}\nRun \`pinfold token --help\` for its options.`, 2)
  }
  if (values.operator) return operatorToken(args, values)
  const scopes = values.scope.split(/\s+/).filter(Boolean)
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope))
  if (unknown.length > 0)
    throw new CliError(`unknown scope ${unknown.join(', ')}: the scopes are ${SCOPES.join(', ')}`, 2)
  if (scopes.length === 0) throw new CliError('--scope names no scope: a token needs at least one', 2)
  const expiresIn = parseDuration(values['expires-in'] ?? values.expires ?? '1h', '--expires-in')
  const config = readConfig()
  const secret = config.authSecret ?? (await loadOrCreateSecret(config.dataDir))
  const minted = await mintToken(secret, { sub: values.sub, org: values.org, scopes, expiresIn })
  const org = values.org ?? values.sub
  process.stdout.write(
    values.json
      ? `${JSON.stringify({ token: minted, sub: values.sub, org, scopes, expires_in: expiresIn })}\n`
      : `${minted}\n`,
  )
}

/** `pinfold token --operator`: a tenant's options would mean nothing in it, so they are refused. */
async function operatorToken(args: string[], values: { sub: string; 'expires-in'?: string; expires?: string }) {
  const tenantOption = args.find((arg) => /^--(org|scope)(=|$)/.test(arg))
  if (tenantOption) throw new CliError(`--operator takes no ${tenantOption.split('=')[0]}: an operator is no tenant`, 2)
  const expiresIn = parseDuration(values['expires-in'] ?? values.expires ?? '1h', '--expires-in')
  const config = readConfig()
  const secret = config.authSecret ?? (await loadOrCreateSecret(config.dataDir))
  process.stdout.write(`${await mintOperatorToken(secret, { sub: values.sub, expiresIn })}\n`)
}

/** `PINFOLD_LOG_LEVEL`, once `serve` has read it. */
let logLevel: LogLevel = 'info'
/** In a worker of `--workers N`, its number, on each of its log lines. */
let workerSlot: number | undefined

function log(level: LogLevel, message: string, fields: Record<string, unknown>): void {
  if (!logs(logLevel, level)) return
  const worker = workerSlot === undefined ? {} : { worker: workerSlot }
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...worker, ...fields })}\n`)
}

/** A setting's error names the file's key when the file set it: that is where it is fixed. */
function namingTheFile<T>(file: ConfigFileSettings, read: () => T): T {
  try {
    return read()
  } catch (error) {
    const origin = Object.entries(file.origin).find(([name]) => (error as Error).message.includes(name))
    if (origin && error instanceof Error) error.message = `${error.message} (set by ${origin[1]})`
    throw error
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const exitCode = error instanceof CliError ? error.exitCode : 1
  process.stderr.write(
    jsonOutput
      ? `${JSON.stringify({ error: describeError(error), exit_code: exitCode })}\n`
      : `pinfold: ${describeError(error)}\n`,
  )
  process.exit(exitCode)
})
