import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import { createFileService } from '../../src/index.js'
import { applyOverrides, UNLIMITED, validateOverrides } from '../../src/quotas/limits.js'

describe('quota limits', () => {
  it('validateOverrides - known names, each a non-negative integer or null; anything else INVALID_INPUT', () => {
    expect(validateOverrides({ storageBytes: 2 ** 40, files: null, fileBytes: undefined })).toEqual({
      storageBytes: 2 ** 40,
      files: null,
    })
    for (const bad of [
      null,
      [],
      'x',
      { storage: 1 },
      { files: -1 },
      { files: 1.5 },
      { files: '3' },
      { files: 2 ** 60 },
    ]) {
      expect(() => validateOverrides(bad), JSON.stringify(bad)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      )
    }
  })

  it('applyOverrides - an override replaces its default, null included; absent ones keep it', () => {
    const defaults = { ...UNLIMITED, files: 100, storageBytes: 1000 }
    expect(applyOverrides(defaults, { files: null, fileBytes: 5 })).toEqual({ ...defaults, files: null, fileBytes: 5 })
  })

  it('createFileService - bad default limits are refused at construction', () => {
    const stores = { records: createMemoryRecordStore(), blobs: createMemoryBlobStore() }
    expect(() => createFileService({ ...stores, quotas: { files: -1 } })).toThrow(/quotas: files/)
  })

  it('setTenantLimits - stored per tenant, read back with the defaults applied and the use', async () => {
    const service = createFileService({
      records: createMemoryRecordStore(),
      blobs: createMemoryBlobStore(),
      quotas: { files: 10 },
    })
    const account = await service.quotas.setTenantLimits('acme', { storageBytes: 500 })
    expect(account).toMatchObject({
      tenantId: 'acme',
      limits: { files: 10, storageBytes: 500, fileBytes: null },
      overrides: { storageBytes: 500 },
      usage: { files: 0, logicalBytes: 0, openPinRequests: 0, vectorizedFiles: 0 },
    })
    expect((await service.quotas.tenantAccount('other')).limits).toMatchObject({ files: 10, storageBytes: null })
    await expect(service.quotas.setTenantLimits('acme', { files: -2 })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })
})

describe('requests per minute', () => {
  it('takeRequest - a tenant’s budget per minute, over a sliding window; a store that cannot answer limits nobody', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    const records = createMemoryRecordStore()
    const service = createFileService({ records, blobs: createMemoryBlobStore(), clock: { now: () => new Date(now) } })
    const actor = { tenantId: 'acme', userId: 'u' }
    await service.quotas.setTenantLimits('acme', { requestsPerMinute: 2 })
    await service.quotas.takeRequest(actor)
    await service.quotas.takeRequest(actor)
    // both at the start of a minute: they weigh on the next minute until half of it has gone
    await expect(service.quotas.takeRequest(actor)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 90 },
    })
    await service.quotas.takeRequest({ tenantId: 'other', userId: 'u' })
    now += 89_000
    await expect(service.quotas.takeRequest(actor)).rejects.toMatchObject({ code: 'RATE_LIMITED' })
    now += 1_000
    await service.quotas.takeRequest(actor)
    await expect(service.quotas.takeRequest(actor)).rejects.toMatchObject({ code: 'RATE_LIMITED' })
    records.accounts.getLimits = async () => {
      throw new Error('database down')
    }
    await service.quotas.takeRequest({ tenantId: 'new', userId: 'u' })
  })

  it('takeRequest - concurrent first requests of a tenant share one read of its limit; a change made meanwhile is read again', async () => {
    const records = createMemoryRecordStore()
    const service = createFileService({ records, blobs: createMemoryBlobStore() })
    await service.quotas.setTenantLimits('fresh', { requestsPerMinute: 3 })
    const getLimits = records.accounts.getLimits.bind(records.accounts)
    let reads = 0
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    records.accounts.getLimits = async (...args) => {
      reads++
      await held
      return getLimits(...args)
    }
    const actor = { tenantId: 'fresh', userId: 'u' }
    const first = Array.from({ length: 10 }, () =>
      service.quotas.takeRequest(actor).then(
        () => 'ok',
        (e) => e.code,
      ),
    )
    release()
    // one read for all ten, and every one of them counted against the same budget of 3
    expect((await Promise.all(first)).sort()).toEqual([...Array(3).fill('ok'), ...Array(7).fill('RATE_LIMITED')].sort())
    expect(reads).toBe(1)

    // the limit changed while a read was on its way: that read answers its requests, the next one reads again
    const other = { tenantId: 'other', userId: 'u' }
    let releaseOther = () => {}
    const heldOther = new Promise<void>((resolve) => {
      releaseOther = resolve
    })
    reads = 0
    records.accounts.getLimits = async (...args) => {
      reads++
      const before = await getLimits(...args)
      await heldOther
      return before
    }
    const waiting = service.quotas.takeRequest(other)
    await new Promise((resolve) => setTimeout(resolve, 0))
    records.accounts.getLimits = getLimits
    await service.quotas.setTenantLimits('other', { requestsPerMinute: 0 })
    releaseOther()
    await waiting
    await expect(service.quotas.takeRequest(other)).rejects.toMatchObject({ code: 'RATE_LIMITED' })
    expect(reads).toBe(1)
  })
})
