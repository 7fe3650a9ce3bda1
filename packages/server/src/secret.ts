import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files.js'

/**
 * The HS256 secret kept in the data directory: generated on first start (mode 0600, in a directory
 * made owner-only here) so that tokens and signed URLs survive restarts without any configuration.
 */
export async function loadOrCreateSecret(dataDir: string): Promise<string> {
  const path = join(dataDir, 'auth-secret')
  await makePrivateDir(dataDir)
  try {
    return (await readFile(path, 'utf8')).trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const secret = randomBytes(32).toString('base64url')
  try {
    // 'wx' fails if another process created it meanwhile; then that one's secret wins
    await writeFile(path, `${secret}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' })
    return secret
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return (await readFile(path, 'utf8')).trim()
  }
}
