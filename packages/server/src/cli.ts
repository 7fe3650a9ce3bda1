#!/usr/bin/env node
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { isPinfoldError, mintToken, SCOPES } from '@pinfold/core'
import { jsonLinesLogger } from '@pinfold/http'
import { readConfig } from './config.js'
import { writeDevToken } from './dev-token.js'
import { runMigrations } from './migrate-command.js'
import { loadOrCreateSecret } from './secret.js'
import { startServer } from './server.js'

const USAGE = `pinfold — self-hosted IPFS file storage speaking Pinata's v3 API

Usage:
  pinfold serve                         start the server (configuration from the environment)
  pinfold token [--sub U] [--org O] [--scope "org:files:write …"] [--expires-in 1h]
                                        mint a bearer token with the configured secret; it
                                        expires after --expires-in (default 1h; e.g. 15m, 7d)
  pinfold migrate                       apply database migrations (DATABASE_URL, else the embedded
                                        database in PINFOLD_DATA_DIR; stop \`pinfold serve\` first)
`

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === 'serve') return serve()
  if (command === 'token') return token(rest)
  if (command === 'migrate') return migrateCommand()
  process.stdout.write(USAGE)
  if (command !== undefined && command !== 'help' && command !== '--help') process.exitCode = 2
}

async function serve(): Promise<void> {
  const config = readConfig()
  const running = await startServer(config, {
    // no URL: its query may hold a signature; the request log line names the route
    onError: (error, request) => log('error', 'request failed', { method: request.method, error: String(error) }),
    logger: jsonLinesLogger((line) => process.stdout.write(line)),
  })
  const ipfs = running.ipfs?.peer()
  log('info', 'pinfold listening', {
    url: running.url,
    storage: running.storage,
    ...(ipfs && { ipfs: { peer_id: ipfs.peerId, addrs: ipfs.addrs, dht: ipfs.dht?.mode ?? 'off' } }),
  })
  // only with the data directory's own secret: a configured secret or JWKS means a real deployment
  if (!config.authSecret && !config.jwksUrl) {
    const devToken = await writeDevToken(config.dataDir, running.secret, config.jwtMaxLifetimeSeconds)
    log('info', 'development token (every scope) saved', {
      path: devToken.path,
      expires_at: devToken.expiresAt.toISOString(),
    })
  }
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
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

async function migrateCommand(): Promise<void> {
  const config = readConfig()
  if (!config.databaseUrl && config.storage === 'memory') {
    process.stdout.write('PINFOLD_STORAGE=memory and no DATABASE_URL: there is no database to migrate\n')
    return
  }
  const target = config.databaseUrl ? 'the PostgreSQL database of DATABASE_URL' : join(config.dataDir, 'db')
  process.stdout.write(`Migrating ${target}\n`)
  const applied = await runMigrations(config, ({ version, name, state }) => {
    const label = `  ${String(version).padStart(4, '0')} ${name}`
    if (state === 'applying') process.stdout.write(`${label} … `)
    else process.stdout.write(state === 'applied' ? 'applied\n' : 'already applied\n')
  })
  process.stdout.write(
    applied.length === 0 ? 'Up to date: nothing to apply\n' : `Applied ${applied.length} migration(s)\n`,
  )
}

async function token(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      sub: { type: 'string', default: 'dev' },
      org: { type: 'string' },
      scope: { type: 'string', default: SCOPES.join(' ') },
      'expires-in': { type: 'string', default: '1h' },
    },
  })
  const config = readConfig()
  const secret = config.authSecret ?? (await loadOrCreateSecret(config.dataDir))
  const minted = await mintToken(secret, {
    sub: values.sub,
    org: values.org,
    scopes: values.scope.split(/\s+/).filter(Boolean),
    expiresIn: values['expires-in'],
  })
  process.stdout.write(`${minted}\n`)
}

function log(level: 'info' | 'error', message: string, fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`pinfold: ${isPinfoldError(error) ? error.message : String(error)}\n`)
  process.exit(1)
})
