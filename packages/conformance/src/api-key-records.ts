import { randomUUID } from 'node:crypto'
import type { ApiKeyRecord, RecordStore } from '@pinfold/interface'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { at, OTHER_TENANT, TENANT } from './fixtures.js'
import type { RecordStoreHarness } from './record-store.js'

function newKey(fields: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: randomUUID(),
    tenantId: TENANT,
    userId: 'user-1',
    name: 'ci uploads',
    key: randomUUID().replaceAll('-', '').slice(0, 20),
    secretHash: 'a'.repeat(64),
    scopes: ['org:files:write', 'org:files:read'],
    permissions: { endpoints: { pinning: { pinFileToIPFS: true } } },
    maxUses: null,
    uses: 0,
    revoked: false,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  }
}

/** The ApiKeyRecordStore contract: storage, listing filters, revocation and the atomic use count. */
export function describeApiKeyRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`ApiKeyRecordStore conformance: ${name}`, () => {
    let h: RecordStoreHarness
    let store: RecordStore
    beforeEach(async () => {
      h = await create()
      store = h.store
    })
    afterEach(async () => {
      await h.close?.()
    })

    const ids = (keys: ApiKeyRecord[]) => keys.map((k) => k.id)
    const list = (filter: Parameters<RecordStore['listApiKeys']>[1] = {}, offset = 0, limit = 100) =>
      store.listApiKeys(TENANT, filter, { offset, limit })

    it('createApiKey - stores the record as given; getApiKey and findApiKey return it', async () => {
      const key = newKey({ maxUses: 5, permissions: { admin: true } })
      expect(await store.createApiKey(key)).toEqual(key)
      expect(await store.getApiKey(TENANT, key.id)).toEqual(key)
      expect(await store.findApiKey(key.key)).toEqual(key)
    })

    it('createApiKey - a reused id or public key is CONFLICT and the first record stays', async () => {
      const key = await store.createApiKey(newKey())
      await expect(store.createApiKey(newKey({ id: key.id }))).rejects.toMatchObject({ code: 'CONFLICT' })
      await expect(store.createApiKey(newKey({ key: key.key, tenantId: OTHER_TENANT }))).rejects.toMatchObject({
        code: 'CONFLICT',
      })
      expect(await store.getApiKey(TENANT, key.id)).toEqual(key)
      expect((await list()).total).toBe(1)
    })

    it('getApiKey - a key of another tenant is absent; findApiKey finds any tenant (it authenticates)', async () => {
      const key = await store.createApiKey(newKey({ tenantId: OTHER_TENANT }))
      expect(await store.getApiKey(TENANT, key.id)).toBeUndefined()
      expect(await store.getApiKey(TENANT, randomUUID())).toBeUndefined()
      expect(await store.findApiKey(key.key)).toEqual(key)
      expect(await store.findApiKey('no-such-key')).toBeUndefined()
    })

    it("listApiKeys - the tenant's keys only, newest first, paged by offset with the total", async () => {
      const keys = []
      for (let i = 0; i < 5; i++) keys.push(await store.createApiKey(newKey({ createdAt: at(i), updatedAt: at(i) })))
      await store.createApiKey(newKey({ tenantId: OTHER_TENANT }))
      const newestFirst = ids(keys).reverse()
      const first = await list({}, 0, 2)
      expect(ids(first.items)).toEqual(newestFirst.slice(0, 2))
      expect(first.total).toBe(5)
      expect(ids((await list({}, 2, 2)).items)).toEqual(newestFirst.slice(2, 4))
      expect(ids((await list({}, 4, 2)).items)).toEqual(newestFirst.slice(4))
      expect(await list({}, 10, 2)).toEqual({ items: [], total: 5 })
    })

    it('listApiKeys - filters by name (substring, any case), revoked, limitedUse and exhausted, combined', async () => {
      const plain = await store.createApiKey(newKey({ name: 'Deploy Bot', createdAt: at(0) }))
      const limited = await store.createApiKey(newKey({ name: 'uploader', maxUses: 2, createdAt: at(1) }))
      const spent = await store.createApiKey(newKey({ name: 'once', maxUses: 1, uses: 1, createdAt: at(2) }))
      const revoked = await store.createApiKey(newKey({ name: 'old deploy', revoked: true, createdAt: at(3) }))
      expect(ids((await list({ name: 'DEPLOY' })).items)).toEqual([revoked.id, plain.id])
      expect(ids((await list({ name: '%' })).items)).toEqual([])
      expect(ids((await list({ revoked: true })).items)).toEqual([revoked.id])
      expect(ids((await list({ revoked: false })).items)).toEqual([spent.id, limited.id, plain.id])
      expect(ids((await list({ limitedUse: true })).items)).toEqual([spent.id, limited.id])
      expect(ids((await list({ limitedUse: false })).items)).toEqual([revoked.id, plain.id])
      expect(ids((await list({ exhausted: true })).items)).toEqual([spent.id])
      expect(ids((await list({ exhausted: false })).items)).toEqual([revoked.id, limited.id, plain.id])
      const both = await list({ name: 'deploy', revoked: false })
      expect(both).toEqual({ items: [plain], total: 1 })
    })

    it('revokeApiKey - marks the key revoked once (updatedAt of the first revocation); other tenants cannot', async () => {
      const key = await store.createApiKey(newKey())
      expect(await store.revokeApiKey(OTHER_TENANT, key.key, at(5))).toBeUndefined()
      expect((await store.getApiKey(TENANT, key.id))?.revoked).toBe(false)
      expect(await store.revokeApiKey(TENANT, key.key, at(5))).toEqual({ ...key, revoked: true, updatedAt: at(5) })
      expect(await store.revokeApiKey(TENANT, key.key, at(9))).toEqual({ ...key, revoked: true, updatedAt: at(5) })
      expect(await store.revokeApiKey(TENANT, 'no-such-key', at(5))).toBeUndefined()
    })

    it('useApiKey - counts uses of a limited key up to maxUses, then answers exhausted and counts nothing', async () => {
      const key = await store.createApiKey(newKey({ maxUses: 2 }))
      expect(await store.useApiKey(TENANT, key.id)).toEqual({ outcome: 'used', key: { ...key, uses: 1 } })
      expect(await store.useApiKey(TENANT, key.id)).toEqual({ outcome: 'used', key: { ...key, uses: 2 } })
      expect(await store.useApiKey(TENANT, key.id)).toEqual({ outcome: 'exhausted', key: { ...key, uses: 2 } })
      expect((await store.getApiKey(TENANT, key.id))?.uses).toBe(2)
    })

    it('useApiKey - an unlimited key is used without counting; revoked and missing keys are refused', async () => {
      const key = await store.createApiKey(newKey())
      expect(await store.useApiKey(TENANT, key.id)).toEqual({ outcome: 'used', key })
      await store.revokeApiKey(TENANT, key.key, at(1))
      expect(await store.useApiKey(TENANT, key.id)).toMatchObject({ outcome: 'revoked', key: { revoked: true } })
      expect(await store.useApiKey(OTHER_TENANT, key.id)).toEqual({ outcome: 'missing' })
      expect(await store.useApiKey(TENANT, randomUUID())).toEqual({ outcome: 'missing' })
    })

    it('useApiKey - a revoked limited key is refused and its uses stay', async () => {
      const key = await store.createApiKey(newKey({ maxUses: 3 }))
      await store.useApiKey(TENANT, key.id)
      await store.revokeApiKey(TENANT, key.key, at(1))
      expect(await store.useApiKey(TENANT, key.id)).toMatchObject({ outcome: 'revoked', key: { uses: 1 } })
    })

    it('useApiKey - of 20 concurrent uses of a key with maxUses 7, exactly 7 are used', async () => {
      const key = await store.createApiKey(newKey({ maxUses: 7 }))
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.useApiKey(TENANT, key.id)))
      expect(outcomes.filter((o) => o.outcome === 'used')).toHaveLength(7)
      expect(outcomes.filter((o) => o.outcome === 'exhausted')).toHaveLength(13)
      expect((await store.getApiKey(TENANT, key.id))?.uses).toBe(7)
    })

    it('aborted signals - every method rejects with ABORTED before acting', async () => {
      const key = await store.createApiKey(newKey({ maxUses: 1 }))
      const signal = AbortSignal.abort()
      await expect(store.createApiKey(newKey(), { signal })).rejects.toMatchObject({ code: 'ABORTED' })
      await expect(store.useApiKey(TENANT, key.id, { signal })).rejects.toMatchObject({ code: 'ABORTED' })
      await expect(store.revokeApiKey(TENANT, key.key, at(1), { signal })).rejects.toMatchObject({ code: 'ABORTED' })
      await expect(store.listApiKeys(TENANT, {}, { offset: 0, limit: 1 }, { signal })).rejects.toMatchObject({
        code: 'ABORTED',
      })
      expect(await store.getApiKey(TENANT, key.id)).toEqual(key)
    })
  })
}
