import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFsBlobStore } from '@pinfold/adapter-fs'
import { computeFileCid, mintToken, SCOPES } from '@pinfold/core'
import { form, TEST_SECRET } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exited, startChildServer } from './support/child-server.js'
import { openFileUpload } from './support/raw-upload.js'

// Child servers start a TypeScript loader and PGlite each: seconds apiece on a busy 2-core machine.
describe('the embedded default across processes (PGlite + filesystem)', { timeout: 120_000 }, () => {
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-embedded-'))
  })
  afterAll(() => rm(dataDir, { recursive: true, force: true }))

  const env = () => ({ PINFOLD_STORAGE: 'embedded', PINFOLD_DATA_DIR: dataDir, PINFOLD_AUTH_SECRET: TEST_SECRET })

  it('lock - a second process on the same data directory is refused with a clear message', async () => {
    const first = await startChildServer(env())
    try {
      await expect(startChildServer(env())).rejects.toMatchObject({
        stderr: expect.stringMatching(/another pinfold process \(pid \d+\) is using the data directory/),
      })
    } finally {
      first.child.kill('SIGTERM')
      await exited(first.child)
    }
  })

  it('kill -9 - every acknowledged upload is intact after a crash and no unacknowledged one left a record', async () => {
    const token = await mintToken(TEST_SECRET, { sub: 'crash', scopes: SCOPES, expiresIn: '1h' })
    const first = await startChildServer(env())
    const acknowledged: { id: string; cid: string; sha: string }[] = []
    for (let i = 0; i < 5; i++) {
      const bytes = createHash('sha256')
        .update(`crash-${i}`)
        .digest()
        .toString('hex')
        .repeat(2000 + i)
      const res = await fetch(`${first.url}/v3/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form({ network: 'public', name: `ack-${i}` }, { bytes }),
      })
      const { data } = (await res.json()) as { data: { id: string; cid: string } }
      acknowledged.push({ ...data, sha: createHash('sha256').update(bytes).digest('hex') })
    }
    // Three uploads left hanging mid-body when the process dies.
    const hanging = Array.from({ length: 3 }, (_, i) => startHangingUpload(first.url, token, `hanging-${i}`))
    await Promise.all(hanging.map((h) => h.sent))
    first.child.kill('SIGKILL')
    await exited(first.child)
    for (const h of hanging) h.abort()

    const second = await startChildServer(env())
    try {
      const res = await fetch(`${second.url}/v3/files/public?limit=100`, {
        headers: { authorization: `Bearer ${token}` },
      })
      const { data } = (await res.json()) as { data: { files: { id: string; cid: string; name: string }[] } }
      expect(data.files.map((f) => f.name).sort()).toEqual(acknowledged.map((_, i) => `ack-${i}`))
      for (const file of acknowledged) expect(data.files.find((f) => f.id === file.id)?.cid).toBe(file.cid)
    } finally {
      second.child.kill('SIGTERM')
      await exited(second.child)
    }
    // Raw probe of the bytes, bypassing the server: every acknowledged blob hashes to its CID.
    const blobs = createFsBlobStore({ directory: join(dataDir, 'blobs') })
    const keys: string[] = []
    for await (const info of blobs.list({ prefix: 'blobs/' })) keys.push(info.key)
    const cids = await Promise.all(
      keys.map(async (key) => (await computeFileCid(await blobs.get(key), 'v1')).toString()),
    )
    for (const file of acknowledged) expect(cids).toContain(file.cid)
  })
})

/** A multipart upload that sends part of its file and then stalls, as a client mid-transfer would. */
function startHangingUpload(url: string, token: string, name: string) {
  const { req } = openFileUpload(url, token, name)
  const sent = new Promise<void>((resolve) => {
    req.write(Buffer.alloc(3 * 1024 * 1024, 7), () => resolve())
  })
  return { sent, abort: () => req.destroy() }
}
