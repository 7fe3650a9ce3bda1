import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mintToken, SCOPES } from '@pinfold/core'
import { freshSchema } from '@pinfold/testing/storage'
import { TEST_SECRET } from '@pinfold/testing/test-api'
import { b64, cidOf } from '@pinfold/testing/tus'
import { describe, expect, it } from 'vitest'
import { type ChildServer, exited, startChildServer } from './support/child-server.js'

/**
 * A tus upload's completion cut by kill -9 at each of its steps (the server halts there through its
 * test-only `PINFOLD_TEST_HALT_COMPLETION_AT`), then a restart: the client's bodiless PATCH at the
 * final offset takes the completion over once the dead process's lease has run out, and gets the
 * upload's CID and file id; the bytes read back exactly, and there is exactly one file record.
 */
const STEPS = ['claimed', 'assembled', 'dag-closed', 'recorded'] as const
const LEASE_MS = 1500
// 3 leaves and a bit: the DAG has a root over several leaves, and the last PATCH ends mid-leaf
const SIZE = 3 * 262_144 + 12_345
const FIRST_PATCH = 300_000

interface Backend {
  /** Settings of a server on fresh, empty stores; `cleanup` removes them. */
  open(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>
}

const embedded: Backend = {
  async open() {
    const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-completion-crash-'))
    return {
      env: { PINFOLD_STORAGE: 'embedded', PINFOLD_DATA_DIR: dataDir },
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    }
  },
}

/** Records in a real PostgreSQL server (a fresh schema), blobs in a data directory. */
const postgres: Backend = {
  async open() {
    const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-completion-crash-pg-'))
    const database = await freshSchema(process.env.TEST_DATABASE_URL!)
    return {
      env: { PINFOLD_STORAGE: 'embedded', PINFOLD_DATA_DIR: dataDir, DATABASE_URL: database },
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    }
  },
}

function describeCrashes(name: string, backend: Backend) {
  // two child servers (a TypeScript loader and a database each) per step: seconds apiece on a busy machine
  describe(`tus completion killed at each step (${name})`, { timeout: 180_000 }, () => {
    it.each(STEPS)(
      'kill -9 after "%s" - a retry after the lease completes it once, with the same bytes',
      async (step) => {
        const { env, cleanup } = await backend.open()
        const settings = {
          ...env,
          PINFOLD_AUTH_SECRET: TEST_SECRET,
          PINFOLD_UPLOAD_COMPLETION_LEASE_MS: String(LEASE_MS),
        }
        const token = await mintToken(TEST_SECRET, { sub: 'crash', scopes: SCOPES, expiresIn: '1h' })
        const auth = { authorization: `Bearer ${token}` }
        const bytes = randomBytes(SIZE)
        try {
          const doomed = await startChildServer({ ...settings, PINFOLD_TEST_HALT_COMPLETION_AT: step })
          let path: string
          try {
            const created = await fetch(`${doomed.url}/v3/files`, {
              method: 'POST',
              headers: {
                ...auth,
                'Upload-Length': String(SIZE),
                'Upload-Metadata': `filename ${b64('crash.bin')},network ${b64('public')}`,
              },
            })
            expect(created.status).toBe(201)
            path = new URL(created.headers.get('location')!).pathname
            expect((await patch(doomed, path, 0, bytes.subarray(0, FIRST_PATCH))).status).toBe(204)
            // the last PATCH never gets its answer: the process dies at the step
            const last = patch(doomed, path, FIRST_PATCH, bytes.subarray(FIRST_PATCH)).catch(() => undefined)
            await waitFor(`the completion to halt after "${step}"`, () =>
              doomed.stdout().includes(`"message":"completion halted","step":"${step}"`),
            )
            doomed.child.kill('SIGKILL')
            await exited(doomed.child)
            await last
          } finally {
            doomed.child.kill('SIGKILL')
          }

          const next = await startChildServer(settings)
          try {
            const head = await fetch(`${next.url}${path}`, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })
            expect(head.status).toBe(200)
            expect(head.headers.get('upload-offset')).toBe(String(SIZE))
            // a bodiless PATCH at the final offset, as a client retries, until the dead process's lease runs out
            const done = await waitFor('a retry to complete the upload', async () => {
              const retry = await patch(next, path, SIZE, new Uint8Array(0))
              expect(retry.status).toBe(204)
              expect(retry.headers.get('upload-offset')).toBe(String(SIZE))
              return retry.headers.get('upload-cid') ? retry : undefined
            })
            const cid = done.headers.get('upload-cid')!
            const fileId = done.headers.get('upload-file-id')!
            expect(cid).toBe(await cidOf(bytes))
            const served = await fetch(`${next.url}/ipfs/${cid}`)
            expect(served.status).toBe(200)
            expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true)
            const listed = await fetch(`${next.url}/v3/files/public?limit=100`, { headers: auth })
            const files = ((await listed.json()) as { data: { files: { id: string; cid: string; name: string }[] } })
              .data.files
            expect(files.map((f) => [f.id, f.cid, f.name])).toEqual([[fileId, cid, 'crash.bin']])
            // the session is gone with its completion: nothing more to retry
            expect((await fetch(`${next.url}${path}`, { method: 'HEAD' })).status).toBe(404)
          } finally {
            next.child.kill('SIGTERM')
            await exited(next.child)
          }
        } finally {
          await cleanup()
        }
      },
    )
  })
}

function patch(server: ChildServer, path: string, offset: number, body: Uint8Array): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(offset) },
    body,
  })
}

/** Polls `probe` until it returns something truthy; fails after 30 s with what it waited for. */
async function waitFor<T>(what: string, probe: () => T | Promise<T>): Promise<NonNullable<T>> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

// Like the crash harness (crash-consistency.test.ts), these run in the stage of the storage they
// prove (CI's embedded and postgres stages): every other stage would start the same children again.
const STORAGE = process.env.PINFOLD_TEST_STORAGE ?? 'memory'
describe.skipIf(STORAGE !== 'embedded')(
  `on the embedded default (skipped unless PINFOLD_TEST_STORAGE=embedded)`,
  () => {
    describeCrashes('embedded default: PGlite + filesystem blobs', embedded)
  },
)
describe.skipIf(STORAGE !== 'postgres' || !process.env.TEST_DATABASE_URL)(
  'on PostgreSQL (skipped unless PINFOLD_TEST_STORAGE=postgres and TEST_DATABASE_URL)',
  () => {
    describeCrashes('PostgreSQL + filesystem blobs', postgres)
  },
)
