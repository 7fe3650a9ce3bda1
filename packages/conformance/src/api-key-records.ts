import { randomUUID } from 'node:crypto'
import type { ApiKeyRecord, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { at, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
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
    parentId: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  }
}

/** The ApiKeyRecordStore contract: storage, listing filters, revocation and the atomic use count. */
export function describeApiKeyRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`ApiKeyRecordStore conformance: ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    const ids = (keys: ApiKeyRecord[]) => keys.map((k) => k.id)
    const list = (filter: Parameters<RecordStore['apiKeys']['listApiKeys']>[1] = {}, offset = 0, limit = 100) =>
      store.apiKeys.listApiKeys(TENANT, filter, { offset, limit })

    it('createApiKey - stores the record as given; getApiKey and findApiKey return it', async () => {
      const key = newKey({ maxUses: 5, permissions: { admin: true } })
      expect(await store.apiKeys.createApiKey(key)).toEqual(key)
      expect(await store.apiKeys.getApiKey(TENANT, key.id)).toEqual(key)
      expect(await store.apiKeys.findApiKey(key.key)).toEqual(key)
    })

    it('createApiKey - a reused id or public key is CONFLICT and the first record stays', async () => {
      const key = await store.apiKeys.createApiKey(newKey())
      await expect(store.apiKeys.createApiKey(newKey({ id: key.id }))).rejects.toMatchObject({ code: 'CONFLICT' })
      await expect(store.apiKeys.createApiKey(newKey({ key: key.key, tenantId: OTHER_TENANT }))).rejects.toMatchObject({
        code: 'CONFLICT',
      })
      expect(await store.apiKeys.getApiKey(TENANT, key.id)).toEqual(key)
      expect((await list()).total).toBe(1)
    })

    it('getApiKey - a key of another tenant is absent; findApiKey finds any tenant (it authenticates)', async () => {
      const key = await store.apiKeys.createApiKey(newKey({ tenantId: OTHER_TENANT }))
      expect(await store.apiKeys.getApiKey(TENANT, key.id)).toBeUndefined()
      expect(await store.apiKeys.getApiKey(TENANT, randomUUID())).toBeUndefined()
      expect(await store.apiKeys.findApiKey(key.key)).toEqual(key)
      expect(await store.apiKeys.findApiKey('no-such-key')).toBeUndefined()
    })

    it("listApiKeys - the tenant's keys only, newest first, paged by offset with the total", async () => {
      const keys = []
      for (let i = 0; i < 5; i++)
        keys.push(await store.apiKeys.createApiKey(newKey({ createdAt: at(i), updatedAt: at(i) })))
      await store.apiKeys.createApiKey(newKey({ tenantId: OTHER_TENANT }))
      const newestFirst = ids(keys).reverse()
      const first = await list({}, 0, 2)
      expect(ids(first.items)).toEqual(newestFirst.slice(0, 2))
      expect(first.total).toBe(5)
      expect(ids((await list({}, 2, 2)).items)).toEqual(newestFirst.slice(2, 4))
      expect(ids((await list({}, 4, 2)).items)).toEqual(newestFirst.slice(4))
      expect(await list({}, 10, 2)).toEqual({ items: [], total: 5 })
    })

    it('listApiKeys - filters by name (substring, any case), revoked, limitedUse and exhausted, combined', async () => {
      const plain = await store.apiKeys.createApiKey(newKey({ name: 'Deploy Bot', createdAt: at(0) }))
      const limited = await store.apiKeys.createApiKey(newKey({ name: 'uploader', maxUses: 2, createdAt: at(1) }))
      const spent = await store.apiKeys.createApiKey(newKey({ name: 'once', maxUses: 1, uses: 1, createdAt: at(2) }))
      const revoked = await store.apiKeys.createApiKey(newKey({ name: 'old deploy', revoked: true, createdAt: at(3) }))
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
      const key = await store.apiKeys.createApiKey(newKey())
      expect(await store.apiKeys.revokeApiKey(OTHER_TENANT, key.key, at(5))).toBeUndefined()
      expect((await store.apiKeys.getApiKey(TENANT, key.id))?.revoked).toBe(false)
      expect(await store.apiKeys.revokeApiKey(TENANT, key.key, at(5))).toEqual({
        ...key,
        revoked: true,
        updatedAt: at(5),
      })
      expect(await store.apiKeys.revokeApiKey(TENANT, key.key, at(9))).toEqual({
        ...key,
        revoked: true,
        updatedAt: at(5),
      })
      expect(await store.apiKeys.revokeApiKey(TENANT, 'no-such-key', at(5))).toBeUndefined()
    })

    it('useApiKey - counts uses of a limited key up to maxUses, then answers exhausted and counts nothing', async () => {
      const key = await store.apiKeys.createApiKey(newKey({ maxUses: 2 }))
      expect(await store.apiKeys.useApiKey(TENANT, key.id)).toEqual({ outcome: 'used', key: { ...key, uses: 1 } })
      expect(await store.apiKeys.useApiKey(TENANT, key.id)).toEqual({ outcome: 'used', key: { ...key, uses: 2 } })
      expect(await store.apiKeys.useApiKey(TENANT, key.id)).toEqual({ outcome: 'exhausted', key: { ...key, uses: 2 } })
      expect((await store.apiKeys.getApiKey(TENANT, key.id))?.uses).toBe(2)
    })

    it('useApiKey - an unlimited key is used without counting; revoked and missing keys are refused', async () => {
      const key = await store.apiKeys.createApiKey(newKey())
      expect(await store.apiKeys.useApiKey(TENANT, key.id)).toEqual({ outcome: 'used', key })
      await store.apiKeys.revokeApiKey(TENANT, key.key, at(1))
      expect(await store.apiKeys.useApiKey(TENANT, key.id)).toMatchObject({
        outcome: 'revoked',
        key: { revoked: true },
      })
      expect(await store.apiKeys.useApiKey(OTHER_TENANT, key.id)).toEqual({ outcome: 'missing' })
      expect(await store.apiKeys.useApiKey(TENANT, randomUUID())).toEqual({ outcome: 'missing' })
    })

    it('useApiKey - a revoked limited key is refused and its uses stay', async () => {
      const key = await store.apiKeys.createApiKey(newKey({ maxUses: 3 }))
      await store.apiKeys.useApiKey(TENANT, key.id)
      await store.apiKeys.revokeApiKey(TENANT, key.key, at(1))
      expect(await store.apiKeys.useApiKey(TENANT, key.id)).toMatchObject({ outcome: 'revoked', key: { uses: 1 } })
    })

    it('useApiKey - of 20 concurrent uses of a key with maxUses 7, exactly 7 are used', async () => {
      const key = await store.apiKeys.createApiKey(newKey({ maxUses: 7 }))
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.apiKeys.useApiKey(TENANT, key.id)))
      expect(outcomes.filter((o) => o.outcome === 'used')).toHaveLength(7)
      expect(outcomes.filter((o) => o.outcome === 'exhausted')).toHaveLength(13)
      expect((await store.apiKeys.getApiKey(TENANT, key.id))?.uses).toBe(7)
    })

    it("createApiKey - a child of a key is stored with its parentId; an unlimited parent's uses stay uncounted", async () => {
      const parent = await store.apiKeys.createApiKey(newKey())
      const child = newKey({ parentId: parent.id })
      expect(await store.apiKeys.createApiKey(child)).toEqual(child)
      expect(await store.apiKeys.createApiKey(newKey({ parentId: parent.id, maxUses: 9 }))).toMatchObject({
        maxUses: 9,
      })
      expect(await store.apiKeys.getApiKey(TENANT, parent.id)).toEqual(parent)
    })

    it("createApiKey - a limited parent's child needs a maxUses within the parent's uses left, and spends them", async () => {
      const parent = await store.apiKeys.createApiKey(newKey({ maxUses: 5 }))
      await store.apiKeys.useApiKey(TENANT, parent.id)
      for (const maxUses of [null, 5]) {
        await expect(store.apiKeys.createApiKey(newKey({ parentId: parent.id, maxUses }))).rejects.toMatchObject({
          code: 'FORBIDDEN',
        })
      }
      expect((await store.apiKeys.getApiKey(TENANT, parent.id))?.uses).toBe(1)
      expect((await list()).total).toBe(1)
      await store.apiKeys.createApiKey(newKey({ parentId: parent.id, maxUses: 3 }))
      expect((await store.apiKeys.getApiKey(TENANT, parent.id))?.uses).toBe(4)
      await store.apiKeys.createApiKey(newKey({ parentId: parent.id, maxUses: 1 }))
      expect(await store.apiKeys.useApiKey(TENANT, parent.id)).toMatchObject({ outcome: 'exhausted', key: { uses: 5 } })
      await expect(store.apiKeys.createApiKey(newKey({ parentId: parent.id, maxUses: 1 }))).rejects.toMatchObject({
        code: 'FORBIDDEN',
      })
    })

    it("createApiKey - a revoked, missing or other tenant's parent is FORBIDDEN and nothing is stored", async () => {
      const revoked = await store.apiKeys.createApiKey(newKey())
      await store.apiKeys.revokeApiKey(TENANT, revoked.key, at(1))
      const foreign = await store.apiKeys.createApiKey(newKey({ tenantId: OTHER_TENANT }))
      for (const parentId of [revoked.id, foreign.id, randomUUID()]) {
        const child = newKey({ parentId })
        await expect(store.apiKeys.createApiKey(child)).rejects.toMatchObject({ code: 'FORBIDDEN' })
        expect(await store.apiKeys.getApiKey(TENANT, child.id)).toBeUndefined()
      }
    })

    it('createApiKey - of 10 concurrent children asking 2 uses each of a parent with 7 left, exactly 3 are created', async () => {
      const parent = await store.apiKeys.createApiKey(newKey({ maxUses: 7 }))
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, () => store.apiKeys.createApiKey(newKey({ parentId: parent.id, maxUses: 2 }))),
      )
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3)
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'FORBIDDEN' })
      expect((await store.apiKeys.getApiKey(TENANT, parent.id))?.uses).toBe(6)
      expect((await list()).total).toBe(4)
    })

    it('revokeApiKey - revokes the keys the key created and theirs (updatedAt set once); other trees stay', async () => {
      const root = await store.apiKeys.createApiKey(newKey())
      const child = await store.apiKeys.createApiKey(newKey({ parentId: root.id }))
      const grandchild = await store.apiKeys.createApiKey(newKey({ parentId: child.id }))
      const early = await store.apiKeys.createApiKey(newKey({ parentId: root.id }))
      await store.apiKeys.revokeApiKey(TENANT, early.key, at(2))
      const other = await store.apiKeys.createApiKey(newKey())
      const othersChild = await store.apiKeys.createApiKey(newKey({ parentId: other.id }))
      expect(await store.apiKeys.revokeApiKey(TENANT, root.key, at(5))).toEqual({
        ...root,
        revoked: true,
        updatedAt: at(5),
      })
      for (const key of [child, grandchild]) {
        expect(await store.apiKeys.getApiKey(TENANT, key.id)).toEqual({ ...key, revoked: true, updatedAt: at(5) })
        expect(await store.apiKeys.useApiKey(TENANT, key.id)).toMatchObject({ outcome: 'revoked' })
      }
      expect((await store.apiKeys.getApiKey(TENANT, early.id))?.updatedAt).toEqual(at(2))
      for (const key of [other, othersChild])
        expect((await store.apiKeys.getApiKey(TENANT, key.id))?.revoked).toBe(false)
    })

    it('revokeApiKey - racing creations under the revoked tree: every child is refused or revoked', async () => {
      for (let round = 0; round < 5; round++) {
        const root = await store.apiKeys.createApiKey(newKey())
        const child = await store.apiKeys.createApiKey(newKey({ parentId: root.id }))
        const creations = Array.from({ length: 6 }, (_, i) =>
          store.apiKeys.createApiKey(newKey({ parentId: i % 2 === 0 ? root.id : child.id })),
        )
        const [revoked, ...created] = await Promise.allSettled([
          store.apiKeys.revokeApiKey(TENANT, root.key, at(3)),
          ...creations,
        ])
        expect(revoked.status).toBe('fulfilled')
        for (const outcome of created) {
          if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'FORBIDDEN' })
          else expect((await store.apiKeys.getApiKey(TENANT, outcome.value.id))?.revoked).toBe(true)
        }
      }
    })

    it('revokeTenantApiKeys - revokes every key of the tenant, children included, and only its', async () => {
      const root = await store.apiKeys.createApiKey(newKey())
      const child = await store.apiKeys.createApiKey(newKey({ parentId: root.id }))
      const old = await store.apiKeys.createApiKey(newKey())
      await store.apiKeys.revokeApiKey(TENANT, old.key, at(1))
      const theirs = await store.apiKeys.createApiKey(newKey({ tenantId: OTHER_TENANT }))
      expect(await store.apiKeys.revokeTenantApiKeys(TENANT, at(5))).toBe(2)
      for (const key of [root, child]) {
        expect(await store.apiKeys.getApiKey(TENANT, key.id)).toMatchObject({ revoked: true, updatedAt: at(5) })
      }
      expect(await store.apiKeys.getApiKey(TENANT, old.id)).toMatchObject({ revoked: true, updatedAt: at(1) })
      expect(await store.apiKeys.getApiKey(OTHER_TENANT, theirs.id)).toMatchObject({ revoked: false })
      expect(await store.apiKeys.revokeTenantApiKeys(TENANT, at(6))).toBe(0)
    })

    it('revokeTenantApiKeys - racing child creations: every child is refused or revoked', async () => {
      const root = await store.apiKeys.createApiKey(newKey())
      const creations = Array.from({ length: 6 }, () => store.apiKeys.createApiKey(newKey({ parentId: root.id })))
      const [revoked, ...created] = await Promise.allSettled([
        store.apiKeys.revokeTenantApiKeys(TENANT, at(3)),
        ...creations,
      ])
      expect(revoked.status).toBe('fulfilled')
      for (const outcome of created) {
        if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'FORBIDDEN' })
        else expect((await store.apiKeys.getApiKey(TENANT, outcome.value.id))?.revoked).toBe(true)
      }
    })

    it('aborted signals - every method rejects with ABORTED before acting', async () => {
      const key = await store.apiKeys.createApiKey(newKey({ maxUses: 1 }))
      const signal = AbortSignal.abort()
      await expect(store.apiKeys.createApiKey(newKey(), { signal })).rejects.toMatchObject({ code: 'ABORTED' })
      await expect(store.apiKeys.useApiKey(TENANT, key.id, { signal })).rejects.toMatchObject({ code: 'ABORTED' })
      await expect(store.apiKeys.revokeApiKey(TENANT, key.key, at(1), { signal })).rejects.toMatchObject({
        code: 'ABORTED',
      })
      await expect(store.apiKeys.listApiKeys(TENANT, {}, { offset: 0, limit: 1 }, { signal })).rejects.toMatchObject({
        code: 'ABORTED',
      })
      expect(await store.apiKeys.getApiKey(TENANT, key.id)).toEqual(key)
    })
  })
}
