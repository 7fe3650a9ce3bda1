import { chmod, lstat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { mintToken, SCOPES } from '@pinfold/core'
import { form } from '@pinfold/testing/test-api'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_TOKEN_LIFETIME_SECONDS } from '../src/dev-token.js'
import { type ChildServer, exited, startChildServer } from './support/child-server.js'

/** Mode bits of every file and directory under `dir`, the directory itself included, by relative path. */
async function modesUnder(dir: string): Promise<Map<string, { kind: 'dir' | 'file'; mode: string }>> {
  const modes = new Map<string, { kind: 'dir' | 'file'; mode: string }>()
  const add = async (path: string) => {
    const info = await lstat(path)
    modes.set(relative(dir, path) || '.', {
      kind: info.isDirectory() ? 'dir' : 'file',
      mode: (info.mode & 0o777).toString(8),
    })
  }
  await add(dir)
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    await add(join(entry.parentPath, entry.name))
  }
  return modes
}

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = probe()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

// `pinfold serve` in its own process on a fresh data directory, with the generated secret: the
// start-up a first-time user gets. Child servers take seconds each on a busy machine.
describe('the data directory of `pinfold serve`', { timeout: 120_000 }, () => {
  let dataDir: string
  let server: ChildServer
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-private-'))
    // left open as an older version or a careless mkdir would: the start must tighten it
    await chmod(dataDir, 0o755)
    await writeFile(join(dataDir, 'dev-token'), 'stale\n', { mode: 0o644 })
    server = await startChildServer({ PINFOLD_STORAGE: 'embedded', PINFOLD_DATA_DIR: dataDir, PINFOLD_AUTH_SECRET: '' })
  })
  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM')
      await exited(server.child)
    }
    await rm(dataDir, { recursive: true, force: true })
  })

  const devTokenLog = () =>
    server
      .stdout()
      .split('\n')
      .map((line) => {
        try {
          return JSON.parse(line) as { message?: string; path?: string; expires_at?: string }
        } catch {
          return undefined
        }
      })
      .find((entry) => entry?.message === 'development token (every scope) saved')

  it('serve - the development token is saved, short-lived and never printed', async () => {
    const logged = await until(devTokenLog, 'the development token log line')
    expect(logged.path).toBe(join(dataDir, 'dev-token'))
    const token = (await readFile(join(dataDir, 'dev-token'), 'utf8')).trim()
    expect(server.stdout()).not.toContain(token)
    const { exp, iat } = decodeJwt(token)
    expect(exp! - iat!).toBe(DEV_TOKEN_LIFETIME_SECONDS)
    expect(new Date(exp! * 1000).toISOString()).toBe(logged.expires_at)
    const res = await fetch(`${server.url}/v3/files/public`, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
  })

  it('serve - after an upload, every file under the data directory is 0600 and every directory 0700', async () => {
    const secret = (await readFile(join(dataDir, 'auth-secret'), 'utf8')).trim()
    const token = await mintToken(secret, { sub: 'alice', scopes: SCOPES, expiresIn: '1h' })
    const res = await fetch(`${server.url}/v3/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form({ network: 'private' }, { bytes: 'tenant secret bytes' }),
    })
    expect(res.status).toBe(200)
    const modes = await modesUnder(dataDir)
    for (const expected of ['auth-secret', 'dev-token', 'pinfold.lock', 'db', 'db/PG_VERSION', 'blobs']) {
      expect(modes.has(expected), expected).toBe(true)
    }
    const loose = [...modes].filter(([, { kind, mode }]) => mode !== (kind === 'dir' ? '700' : '600'))
    expect(loose).toEqual([])
  })
})
