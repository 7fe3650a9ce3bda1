import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService } from '@pinfold/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startSweepers } from '../src/sweepers.js'

const entry = (targetId: string) => ({
  tenantId: 'acme',
  type: 'file.created',
  actor: { kind: 'user' as const, id: 'alice' },
  requestId: null,
  target: { kind: 'file', id: targetId },
  data: {},
})

afterEach(() => {
  vi.useRealTimers()
})

describe('audit log retention', () => {
  it('sweepers - entries older than PINFOLD_AUDIT_RETENTION_DAYS are deleted on the timer, newer ones kept', async () => {
    const records = createMemoryRecordStore()
    const service = createFileService({ records, blobs: createMemoryBlobStore() })
    // an entry recorded three days ago (the store stamps the time it appends)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 3 * 24 * 60 * 60_000 })
    await records.events.appendEvents([entry('old')])
    vi.useRealTimers()
    await records.events.appendEvents([entry('new')])
    const targets = async () =>
      (await records.events.listEvents({}, { limit: 10, order: 'asc' })).items.map((e) => e.target.id)
    expect(await targets()).toEqual(['old', 'new'])
    const stop = startSweepers(service, {
      auditRetentionDays: 2,
      auditIntervalMs: 20,
      usageFlushIntervalMs: 0,
      expiryIntervalMs: 0,
      orphanIntervalMs: 0,
      sessionIntervalMs: 0,
    })
    try {
      await expect.poll(targets, { timeout: 5_000, interval: 20 }).toEqual(['new'])
    } finally {
      stop()
    }
  })

  it('sweepers - a retention of 0 keeps every entry', async () => {
    const records = createMemoryRecordStore()
    const service = createFileService({ records, blobs: createMemoryBlobStore() })
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 3000 * 24 * 60 * 60_000 })
    await records.events.appendEvents([entry('ancient')])
    vi.useRealTimers()
    const stop = startSweepers(service, {
      auditRetentionDays: 0,
      auditIntervalMs: 10,
      usageFlushIntervalMs: 0,
      expiryIntervalMs: 0,
      orphanIntervalMs: 0,
      sessionIntervalMs: 0,
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    stop()
    expect((await records.events.listEvents({}, { limit: 10, order: 'asc' })).items).toHaveLength(1)
  })
})
