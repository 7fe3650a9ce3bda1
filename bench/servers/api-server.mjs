// The Pinfold server for request benchmarks, composed exactly as `pinfold serve` composes it
// (startServer + readConfig), on the built packages, with memory records and blobs.
// Prints `{url, token}` as one JSON line once listening; the token holds every scope.
// PINFOLD_METRICS_TOKEN in the environment turns `/metrics` on (metrics-overhead.ts).
import { mintToken, SCOPES } from '@pinfold/core'
import { readConfig, startServer } from '@pinfold/server'

const secret = 'bench-secret-0123456789abcdef0123456789abcdef'
const config = readConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  PINFOLD_STORAGE: 'memory',
  PINFOLD_AUTH_SECRET: secret,
  ...(process.env.PINFOLD_METRICS_TOKEN && { PINFOLD_METRICS_TOKEN: process.env.PINFOLD_METRICS_TOKEN }),
})
const server = await startServer(config)
const token = await mintToken(secret, { sub: 'bench', scopes: SCOPES, expiresIn: '1d' })
process.stdout.write(`${JSON.stringify({ url: server.url, token })}\n`)
process.once('SIGTERM', () => {
  server.server.closeAllConnections()
  // exit after close so a --cpu-prof profile is written
  void server.close().then(() => process.exit(0))
})
