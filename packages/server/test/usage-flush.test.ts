import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService } from '@pinfold/core'
import { form } from '@pinfold/testing/test-api'
import { describe, expect, it } from 'vitest'
import { startSweepers } from '../src/sweepers.js'
import { startTestServer } from './support/server.js'

const today = () => new Date().toISOString().slice(0, 10)
const RANKING = { by: 'cid', sortBy: 'requests', order: 'desc', limit: 10 } as const

describe('gateway usage reaches the record store', { timeout: 120_000 }, () => {
  it('sweepers - counts are flushed on their timer, without anyone reading them', async () => {
    const records = createMemoryRecordStore()
    const service = createFileService({ records, blobs: createMemoryBlobStore() })
    const stop = startSweepers(service, {
      usageFlushIntervalMs: 20,
      expiryIntervalMs: 0,
      orphanIntervalMs: 0,
      sessionIntervalMs: 0,
    })
    try {
      service.usage.recordGatewayHit({ tenantId: 'acme', cid: 'bafkqaaa', fileName: 'x', status: 200, bytes: 9 })
      const query = { from: today(), to: today() }
      expect(await records.usage.rankGatewayUsage('acme', query, RANKING)).toEqual([])
      await expect
        .poll(() => records.usage.rankGatewayUsage('acme', query, RANKING), { timeout: 5_000, interval: 20 })
        .toEqual([{ value: 'bafkqaaa', requests: 1, bytes: 9 }])
    } finally {
      stop()
    }
  })

  it('shutdown - the counts since the last flush are written when the server stops', async () => {
    // records that outlive the process (memory stores would start empty again)
    const server = await startTestServer({ PINFOLD_STORAGE: 'embedded' })
    try {
      const res = await server.api('/v3/files', {
        method: 'POST',
        body: form({ network: 'private' }, { bytes: 'kept' }),
      })
      const { cid } = ((await res.json()) as { data: { cid: string } }).data
      const link = await server.api('/v3/files/private/download_link', {
        method: 'POST',
        body: JSON.stringify({ url: `${server.url}/files/${cid}`, expires: 600, method: 'GET' }),
      })
      const url = ((await link.json()) as { data: string }).data
      expect(await (await fetch(url)).text()).toBe('kept')
      // the record store (not the stopped process's memory) is what the restarted server reads
      await server.restart()
      const top = await server.api(`/v3/ipfs/gateway_analytics_top?start_date=${today()}&end_date=${today()}`)
      expect(await top.json()).toEqual({ data: [{ value: cid, requests: 1, bandwidth: 4 }] })
    } finally {
      await server.close()
    }
  })
})
