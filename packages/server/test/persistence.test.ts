import { chacha } from '@pinfold/testing/gateway'
import { form } from '@pinfold/testing/test-api'
import { folderForm } from '@pinfold/testing/uploads'
import { describe, expect, it } from 'vitest'
import { startTestServer } from './support/server.js'

// A server restarted in this process (`restart()` closes and reopens its stores); a second process
// on the same data directory and a crash are in persistence-processes.test.ts.
describe('the embedded default (PGlite + filesystem)', { timeout: 120_000 }, () => {
  it('restart - files survive a restart of the server', async () => {
    const server = await startTestServer({ PINFOLD_STORAGE: 'embedded' })
    try {
      const res = await server.api('/v3/files', { method: 'POST', body: form({ name: 'kept' }, { bytes: 'survives' }) })
      const { data } = (await res.json()) as { data: { id: string; cid: string } }
      await server.restart()
      const again = await server.api(`/v3/files/private/${data.id}`)
      expect(((await again.json()) as { data: { cid: string; name: string } }).data).toMatchObject({
        cid: data.cid,
        name: 'kept',
      })
    } finally {
      await server.close()
    }
  })
})

const LEAF = 262_144

describe('block index across a restart (embedded storage)', () => {
  it('restart - a database whose block index was emptied is indexed again before the server answers', async () => {
    const server = await startTestServer({ PINFOLD_STORAGE: 'embedded' })
    try {
      const bytes = chacha('restart-backfill', 3 * LEAF)
      const res = await server.api('/v3/files', {
        method: 'POST',
        body: folderForm([{ path: 'kept/file.bin', bytes }], { network: 'public' }),
      })
      const { cid } = ((await res.json()) as { data: { cid: string } }).data
      const content = (await server.stores.records.files.getContent(cid))!
      await server.stores.records.blocks.deleteBlockLocations(content.blobKey)
      expect((await fetch(`${server.url}/ipfs/${cid}/file.bin`)).status).toBe(404)
      await server.restart()
      const file = await fetch(`${server.url}/ipfs/${cid}/file.bin`)
      expect(file.status).toBe(200)
      expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
    } finally {
      await server.close()
    }
  })
})
