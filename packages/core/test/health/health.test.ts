import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import { PinfoldError } from '../../src/index.js'
import { createTestService } from '../support/test-service.js'

const down = async (): Promise<never> => {
  throw new PinfoldError('UNAVAILABLE', 'connect ECONNREFUSED 10.0.0.5:5432')
}

describe('health', () => {
  it('check - both stores answer: ok', async () => {
    const { service } = createTestService()
    expect(await service.health.check()).toEqual({ ok: true, checks: { records: 'ok', blobs: 'ok' } })
  })

  it.each(['records', 'blobs'] as const)(
    'check - a failing %s store is named as failed; the check itself answers, without the error',
    async (failing) => {
      const records = createMemoryRecordStore()
      const blobs = createMemoryBlobStore()
      const { service } = createTestService({
        records: failing === 'records' ? { ...records, files: { ...records.files, getContent: down } } : records,
        blobs: failing === 'blobs' ? { ...blobs, head: down } : blobs,
      })
      const report = await service.health.check()
      expect(report).toEqual({
        ok: false,
        checks: { records: failing === 'records' ? 'failed' : 'ok', blobs: failing === 'blobs' ? 'failed' : 'ok' },
      })
      expect(JSON.stringify(report)).not.toContain('10.0.0.5')
    },
  )

  it('check - a store that throws instead of rejecting is failed too', async () => {
    const records = createMemoryRecordStore()
    const { service } = createTestService({
      records: {
        ...records,
        files: {
          ...records.files,
          getContent: () => {
            throw new Error('not even a promise')
          },
        },
      },
    })
    expect(await service.health.check()).toMatchObject({ ok: false, checks: { records: 'failed', blobs: 'ok' } })
  })

  it("check - each probe gets the caller's signal", async () => {
    const seen: [string, AbortSignal | undefined][] = []
    const records = createMemoryRecordStore()
    const blobs = createMemoryBlobStore()
    const { service } = createTestService({
      records: {
        ...records,
        files: { ...records.files, getContent: async (_cid, options) => void seen.push(['records', options?.signal]) },
      },
      blobs: { ...blobs, head: async (_key, options) => void seen.push(['blobs', options?.signal]) },
    })
    const { signal } = new AbortController()
    await service.health.check({ signal })
    expect(seen).toEqual([
      ['records', signal],
      ['blobs', signal],
    ])
  })
})
