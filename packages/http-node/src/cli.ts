#!/usr/bin/env node
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { isPinfoldError, mintToken, SCOPES } from '@pinfold/core'
import { readConfig } from './config.js'
import { loadOrCreateSecret } from './secret.js'
import { startServer } from './server.js'

const USAGE = `pinfold — self-hosted IPFS file storage speaking Pinata's v3 API

Usage:
  pinfold serve                         start the server (configuration from the environment)
  pinfold token [--sub U] [--org O] [--scope "org:files:write …"] [--expires 30d]
                                        mint a bearer token with the configured secret
`

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === 'serve') return serve()
  if (command === 'token') return token(rest)
  process.stdout.write(USAGE)
  if (command !== undefined && command !== 'help' && command !== '--help') process.exitCode = 2
}

async function serve(): Promise<void> {
  const config = readConfig()
  const running = await startServer(config, {
    onError: (error, request) =>
      log('error', 'request failed', { method: request.method, url: request.url, error: String(error) }),
  })
  log('info', 'pinfold listening', { url: running.url, storage: running.storage })
  if (running.secretCreated && !config.jwksUrl) {
    const devToken = await mintToken(running.secret, { sub: 'dev', org: 'dev', scopes: SCOPES })
    await writeFile(join(config.dataDir, 'dev-token'), `${devToken}\n`, { mode: 0o600 })
    process.stdout.write(
      `\nDevelopment token (every scope; also saved to ${join(config.dataDir, 'dev-token')}):\n${devToken}\n\n`,
    )
  }
  const stop = () => {
    log('info', 'shutting down', {})
    void running.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

async function token(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      sub: { type: 'string', default: 'dev' },
      org: { type: 'string' },
      scope: { type: 'string', default: SCOPES.join(' ') },
      expires: { type: 'string' },
    },
  })
  const config = readConfig()
  const secret = config.authSecret ?? (await loadOrCreateSecret(config.dataDir)).secret
  const minted = await mintToken(secret, {
    sub: values.sub,
    org: values.org,
    scopes: values.scope.split(/\s+/).filter(Boolean),
    expiresIn: values.expires,
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
