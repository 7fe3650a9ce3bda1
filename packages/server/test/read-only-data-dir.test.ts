import { spawn, spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

/**
 * A read-only data directory, for root too (which ignores permission bits): `pinfold serve` runs in
 * a mount namespace of its own (`unshare -rm`, no privilege needed where user namespaces are
 * allowed) in which `readOnly` is bind-mounted onto itself read-only. Writes there fail with EROFS,
 * as on a read-only volume; nothing outside the child sees the mount.
 */
function serveWithReadOnly(
  readOnly: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string; listened: boolean }> {
  const script = 'mount --bind "$RO" "$RO" && mount -o remount,bind,ro "$RO" && exec "$@"'
  const child = spawn(
    'unshare',
    ['-rm', 'sh', '-c', script, 'sh', process.execPath, '--import', 'tsx', '--conditions=source', cli, 'serve'],
    { env: { ...process.env, PORT: '0', RO: readOnly, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  let listened = false
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
    // a server that starts on a directory it cannot write is the failure this file is about: stop it
    if (!listened && stdout.includes('"pinfold listening"')) {
      listened = true
      child.kill('SIGKILL')
    }
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, listened }))
  })
}

const namespaces = spawnSync('unshare', ['-rm', 'true']).status === 0

describe.skipIf(!namespaces)('`pinfold serve` on a read-only data directory', { timeout: 120_000 }, () => {
  let parent: string
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'pinfold-read-only-'))
  })
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true })
  })

  /** Exit status non-zero, never listening, and stderr one line saying which directory and why. */
  function expectOneClearError(run: Awaited<ReturnType<typeof serveWithReadOnly>>, dir: string) {
    expect(run.listened).toBe(false)
    expect(run.code).not.toBe(0)
    const lines = run.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toBe(
      `pinfold: the data directory ${dir} is not writable (read-only file system): set PINFOLD_DATA_DIR to a directory this server can write`,
    )
  }

  /** The embedded default, whatever the environment running the tests sets. */
  const EMBEDDED_DEFAULT = {
    PINFOLD_STORAGE: 'embedded',
    PINFOLD_AUTH_SECRET: '',
    DATABASE_URL: '',
    PINFOLD_S3_BUCKET: '',
  }

  it('refuses to start with the embedded default (database, blobs and secret in the data directory)', async () => {
    const dataDir = join(parent, 'embedded')
    await mkdir(dataDir)
    const run = await serveWithReadOnly(dataDir, { ...EMBEDDED_DEFAULT, PINFOLD_DATA_DIR: dataDir })
    expectOneClearError(run, dataDir)
    expect(await readdir(dataDir)).toEqual([])
  })

  it('says so for a data directory still to be made under a read-only parent, not "no such file"', async () => {
    const readOnly = join(parent, 'parent')
    await mkdir(readOnly)
    const dataDir = join(readOnly, 'data')
    const run = await serveWithReadOnly(readOnly, { ...EMBEDDED_DEFAULT, PINFOLD_DATA_DIR: dataDir })
    expectOneClearError(run, dataDir)
  })

  // Records elsewhere, blobs in the data directory: the server used to start, answer /readyz
  // with both stores "ok" and refuse every upload with a 503 (creating the blob directories failed)
  it('refuses to start when only the blobs live in the data directory (DATABASE_URL, no S3)', async () => {
    const dataDir = join(parent, 'blobs-only')
    await mkdir(dataDir)
    const run = await serveWithReadOnly(dataDir, {
      PINFOLD_DATA_DIR: dataDir,
      PINFOLD_AUTH_SECRET: 'read-only-test-secret-0123456789abcdef0123',
      // a real server when the suite has one (the server used to start on it); a closed port otherwise
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://pinfold@127.0.0.1:1/none',
      PINFOLD_S3_BUCKET: '',
    })
    expectOneClearError(run, dataDir)
  })
})
