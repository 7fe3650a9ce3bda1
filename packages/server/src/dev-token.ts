import { join } from 'node:path'
import { mintToken, SCOPES } from '@pinfold/core'
import { writePrivateFile } from './private-files.js'

/** A development token lives a day: long enough for a session of trying things, short if it leaks. */
export const DEV_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60

/**
 * Mints a token holding every scope for tenant and user `dev`, valid for a day (or the server's
 * maximum token lifetime, if shorter), into `<dataDir>/dev-token` (0600). Minted again at every
 * start, so the file always holds a live token, and never printed: a terminal log or CI output
 * would keep it.
 */
export async function writeDevToken(
  dataDir: string,
  secret: string,
  maxLifetimeSeconds = DEV_TOKEN_LIFETIME_SECONDS,
): Promise<{ path: string; expiresAt: Date }> {
  const path = join(dataDir, 'dev-token')
  const lifetime = Math.min(DEV_TOKEN_LIFETIME_SECONDS, maxLifetimeSeconds)
  const now = new Date(Math.floor(Date.now() / 1000) * 1000) // JWT times are whole seconds
  const token = await mintToken(secret, {
    sub: 'dev',
    org: 'dev',
    scopes: SCOPES,
    expiresIn: lifetime,
    now,
  })
  await writePrivateFile(path, `${token}\n`)
  return { path, expiresAt: new Date(now.getTime() + lifetime * 1000) }
}
