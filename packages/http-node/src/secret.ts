import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The HS256 secret kept in the data directory: generated on first start (mode 0600) so that
 * tokens and signed URLs survive restarts without any configuration.
 */
export async function loadOrCreateSecret(dataDir: string): Promise<{ secret: string; created: boolean }> {
  const path = join(dataDir, 'auth-secret')
  try {
    return { secret: (await readFile(path, 'utf8')).trim(), created: false }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(dataDir, { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  try {
    // 'wx' fails if another process created it meanwhile; then that one's secret wins
    await writeFile(path, `${secret}\n`, { mode: 0o600, flag: 'wx' })
    return { secret, created: true }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return { secret: (await readFile(path, 'utf8')).trim(), created: false }
  }
}
