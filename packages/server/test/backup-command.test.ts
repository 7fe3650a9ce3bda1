import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, readdir, readFile, rm, stat, unlink } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { MIGRATIONS } from '@pinfold/adapter-postgres'
import { form } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChildServer, exited, startChildServer } from './support/child-server.js'

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

/** `pinfold backup|restore <dir>` (or `migrate`, `serve`) in its own process, as an operator runs it. */
async function pinfold(dataDir: string | Record<string, string>, ...args: string[]) {
  const env = typeof dataDir === 'string' ? { PINFOLD_DATA_DIR: dataDir } : dataDir
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', cli, ...args],
      { env: { ...process.env, ...env } },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string }
    return { code, stdout, stderr }
  }
}

async function stop(server: ChildServer): Promise<void> {
  server.child.kill('SIGTERM')
  await exited(server.child)
}

/** Every file under `dir`, relative, with its size. */
async function tree(dir: string): Promise<Record<string, number>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries.filter((entry) => entry.isFile())
  const sizes = await Promise.all(files.map((entry) => stat(join(entry.parentPath, entry.name))))
  return Object.fromEntries(
    files.map((entry, i) => [join(entry.parentPath, entry.name).slice(dir.length + 1), sizes[i]!.size]),
  )
}

/** The development token `pinfold serve` saves just after it logs that it listens. */
async function devToken(dataDir: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await readFile(join(dataDir, 'dev-token'), 'utf8')).trim()
    } catch (error) {
      if (attempt === 100) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

// Real server processes (a TypeScript loader and PGlite each): seconds apiece on a busy machine.
// The commands cover the embedded default whatever PINFOLD_TEST_STORAGE says: they run once, on the
// default test run, not again on each storage CI tries.
const DEFAULT_RUN = (process.env.PINFOLD_TEST_STORAGE ?? 'memory') === 'memory'

describe.skipIf(!DEFAULT_RUN)(
  'pinfold backup / restore (the embedded default; runs on the default test run only)',
  { timeout: 180_000 },
  () => {
    let root: string
    const big = randomBytes(3 * 1024 * 1024 + 17)
    let publicFile: { id: string; cid: string }
    let privateFile: { id: string; cid: string }
    let token: string
    let signedPath: string

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'pinfold-backup-'))
      const server = await startChildServer({ PINFOLD_STORAGE: 'embedded', PINFOLD_DATA_DIR: join(root, 'data') })
      try {
        token = await devToken(join(root, 'data'))
        const post = async (network: string, bytes: Uint8Array | string) => {
          const res = await fetch(`${server.url}/v3/files`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
            body: form({ network }, { bytes }),
          })
          expect(res.status).toBe(200)
          return ((await res.json()) as { data: { id: string; cid: string } }).data
        }
        publicFile = await post('public', big)
        privateFile = await post('private', 'kept private')
        const link = await fetch(`${server.url}/v3/files/private/download_link`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `x/files/${privateFile.cid}`, expires: 3600 }),
        })
        const url = new URL(((await link.json()) as { data: string }).data)
        signedPath = `${url.pathname}${url.search}`

        // while the server runs the database is its own: refused, and nothing written
        const refused = await pinfold(join(root, 'data'), 'backup', join(root, 'while-serving'))
        expect(refused.code).toBe(1)
        expect(refused.stderr).toMatch(/is using the data directory .*pinfold backup needs the server stopped/)
        await expect(stat(join(root, 'while-serving'))).rejects.toMatchObject({ code: 'ENOENT' })
      } finally {
        await stop(server)
      }
    })
    afterAll(() => rm(root, { recursive: true, force: true }))

    it('backup - copies the database, blobs and secret into a private directory and says what it did', async () => {
      const done = await pinfold(join(root, 'data'), 'backup', join(root, 'backup'))
      expect(done).toMatchObject({ code: 0, stderr: '' })
      expect(done.stdout).toMatch(/^Backed up .* into .*backup: \d+ files, \d+ bytes \(\d+ blob files hard-linked\)/)
      const files = await tree(join(root, 'backup'))
      expect(Object.keys(files)).toContain('pinfold-backup.json')
      expect(Object.keys(files)).toContain('auth-secret')
      expect(Object.keys(files).some((file) => file.startsWith('db/'))).toBe(true)
      // the 3 MiB upload is a blob of its own size
      expect(Object.entries(files).some(([file, size]) => file.startsWith('blobs/') && size === big.length)).toBe(true)
      expect(Object.keys(files).some((file) => /dev-token|pinfold\.lock/.test(file))).toBe(false)
      expect((await stat(join(root, 'backup'))).mode & 0o777).toBe(0o700)
      expect((await stat(join(root, 'backup', 'auth-secret'))).mode & 0o777).toBe(0o600)

      const again = await pinfold(join(root, 'data'), 'backup', join(root, 'backup'))
      expect(again.code).toBe(1)
      expect(again.stderr).toMatch(/the backup directory .* is not empty/)
    })

    it('restore - a fresh data directory serves the same bytes, records, tokens and signed links', async () => {
      const fresh = join(root, 'restored')
      const done = await pinfold(fresh, 'restore', join(root, 'backup'))
      expect(done).toMatchObject({ code: 0, stderr: '' })
      expect(done.stdout).toMatch(/^Restored .*backup into .*restored: \d+ files/)

      const server = await startChildServer({ PINFOLD_STORAGE: 'embedded', PINFOLD_DATA_DIR: fresh })
      try {
        const gateway = await fetch(`${server.url}/ipfs/${publicFile.cid}`)
        expect(gateway.status).toBe(200)
        expect(Buffer.from(await gateway.arrayBuffer()).equals(big)).toBe(true)
        // a token of the old server: the signing secret came back too
        const record = await fetch(`${server.url}/v3/files/private/${privateFile.id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
        expect(((await record.json()) as { data: { cid: string } }).data.cid).toBe(privateFile.cid)
        const signed = await fetch(`${server.url}${signedPath}`)
        expect(signed.status).toBe(200)
        expect(await signed.text()).toBe('kept private')
      } finally {
        await stop(server)
      }

      const over = await pinfold(fresh, 'restore', join(root, 'backup'))
      expect(over.code).toBe(1)
      expect(over.stderr).toMatch(/restore into a fresh data directory/)
    })

    it('restore - an incomplete backup is refused and leaves the data directory as it was', async () => {
      const cut = join(root, 'cut')
      await cp(join(root, 'backup'), cut, { recursive: true })
      const blobs = Object.keys(await tree(cut)).filter((file) => file.startsWith('blobs/'))
      await unlink(join(cut, blobs[0]!))
      const target = join(root, 'from-cut')
      const refused = await pinfold(target, 'restore', cut)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toMatch(/is incomplete: its manifest lists \d+ files/)
      expect(await readdir(target)).toEqual([])

      await unlink(join(cut, 'pinfold-backup.json'))
      const unfinished = await pinfold(target, 'restore', cut)
      expect(unfinished.stderr).toMatch(/is not a complete pinfold backup: it has no pinfold-backup.json/)
    })

    it('--json - backup, migrate and serve answer one JSON object, and their failures one JSON line on stderr', async () => {
      const blocker = createServer()
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
      const port = String((blocker.address() as AddressInfo).port)
      try {
        // one process at a time on the data directory (each locks it); serve meanwhile on another
        const onData = async () => {
          const backup = await pinfold(join(root, 'data'), 'backup', join(root, 'backup-json'), '--json')
          const refused = await pinfold(join(root, 'data'), 'backup', join(root, 'backup-json'), '--json')
          return { backup, refused, migrate: await pinfold(join(root, 'data'), 'migrate', '--json') }
        }
        const [{ backup, refused, migrate }, serve] = await Promise.all([
          onData(),
          pinfold({ PINFOLD_DATA_DIR: join(root, 'serve-json'), PORT: port }, 'serve', '--json'),
        ])
        expect(backup).toMatchObject({ code: 0, stderr: '' })
        expect(JSON.parse(backup.stdout)).toEqual({
          command: 'backup',
          from: join(root, 'data'),
          into: join(root, 'backup-json'),
          files: expect.any(Number),
          bytes: expect.any(Number),
          hard_linked: expect.any(Number),
          ms: expect.any(Number),
        })
        expect(refused).toMatchObject({ code: 1, stdout: '' })
        expect(JSON.parse(refused.stderr)).toEqual({ error: expect.stringMatching(/is not empty/), exit_code: 1 })
        // the server that made the database applied every migration: nothing left, each named as done
        expect(migrate).toMatchObject({ code: 0, stderr: '' })
        expect(JSON.parse(migrate.stdout)).toEqual({
          target: join(root, 'data', 'db'),
          applied: [],
          already_applied: MIGRATIONS.length,
        })
        // a port in use: one JSON line naming PORT, before the data directory is made
        expect(serve).toMatchObject({ code: 1, stdout: '' })
        expect(JSON.parse(serve.stderr)).toEqual({ error: expect.stringContaining('PORT'), exit_code: 1 })
        await expect(stat(join(root, 'serve-json'))).rejects.toMatchObject({ code: 'ENOENT' })
      } finally {
        blocker.close()
      }
    })

    it('backup - usage errors, --help, and configurations whose data lives elsewhere, naming what to use instead', async () => {
      // a stray argument is a usage error (exit 2), not a backup
      const stray = await pinfold(join(root, 'data'), 'backup', join(root, 'x'), 'extra')
      expect(stray).toMatchObject({ code: 2, stderr: expect.stringMatching(/backup takes one directory/) })
      const help = await pinfold(join(root, 'data'), 'restore', '--help')
      expect(help).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: pinfold restore <dir>/) })
      const withDatabase = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--conditions=source', cli, 'backup', join(root, 'x')],
        { env: { ...process.env, PINFOLD_DATA_DIR: join(root, 'data'), DATABASE_URL: 'postgres://nowhere/db' } },
      ).catch((error: { code: number; stderr: string }) => error)
      expect(withDatabase).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/DATABASE_URL \(back it up with pg_dump\)/),
      })
    })
  },
)
