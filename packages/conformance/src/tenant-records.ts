import type { RecordStore, TenantRecord } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { at } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

function newTenant(id: string, fields: Partial<TenantRecord> = {}): TenantRecord {
  return { id, createdAt: at(0), origin: 'token', suspension: null, ...fields }
}

/** The TenantRecordStore contract: registration once, listing and search, suspension. */
export function describeTenantRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`TenantRecordStore conformance: ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    const ids = (tenants: TenantRecord[]) => tenants.map((t) => t.id)

    it('registerTenant - creates once; a later registration keeps the stored record', async () => {
      const first = newTenant('acme', { origin: 'admin' })
      expect(await store.tenants.registerTenant(first)).toEqual({ tenant: first, created: true })
      const again = await store.tenants.registerTenant(newTenant('acme', { createdAt: at(9), origin: 'token' }))
      expect(again).toEqual({ tenant: first, created: false })
      expect(await store.tenants.getTenant('acme')).toEqual(first)
      expect(await store.tenants.getTenant('nobody')).toBeUndefined()
    })

    it('registerTenant - of concurrent registrations of one id exactly one creates it', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.tenants.registerTenant(newTenant('racy', { createdAt: at(i) }))),
      )
      expect(results.filter((r) => r.created)).toHaveLength(1)
      const stored = await store.tenants.getTenant('racy')
      for (const r of results) expect(r.tenant).toEqual(stored)
    })

    it('listTenants - by id, paged with a total; search is a literal, case-insensitive substring', async () => {
      for (const id of ['globex', 'Acme-EU', 'acme', 'initech', 'a%b_c'])
        await store.tenants.registerTenant(newTenant(id))
      const all = await store.tenants.listTenants({}, { offset: 0, limit: 10 })
      expect(ids(all.items)).toEqual(['Acme-EU', 'a%b_c', 'acme', 'globex', 'initech'])
      expect(all.total).toBe(5)
      const page = await store.tenants.listTenants({}, { offset: 1, limit: 2 })
      expect(page).toEqual({ items: all.items.slice(1, 3), total: 5 })
      expect(await store.tenants.listTenants({}, { offset: 10, limit: 2 })).toEqual({ items: [], total: 5 })
      const acme = await store.tenants.listTenants({ search: 'ACME' }, { offset: 0, limit: 10 })
      expect(ids(acme.items)).toEqual(['Acme-EU', 'acme'])
      expect(ids((await store.tenants.listTenants({ search: '%' }, { offset: 0, limit: 10 })).items)).toEqual(['a%b_c'])
      expect(ids((await store.tenants.listTenants({ search: '_' }, { offset: 0, limit: 10 })).items)).toEqual(['a%b_c'])
    })

    it('setSuspension - suspends and resumes; filters by suspended and hidden; unknown ids change nothing', async () => {
      for (const id of ['a', 'b', 'c']) await store.tenants.registerTenant(newTenant(id))
      const hidden = { at: at(5), reason: 'unpaid invoice', hideContent: true }
      const kept = { at: at(6), reason: 'abuse report', hideContent: false }
      expect(await store.tenants.setSuspension('a', hidden)).toEqual(newTenant('a', { suspension: hidden }))
      expect((await store.tenants.setSuspension('b', kept))?.suspension).toEqual(kept)
      const page = { offset: 0, limit: 10 }
      expect(ids((await store.tenants.listTenants({ suspended: true }, page)).items)).toEqual(['a', 'b'])
      expect(ids((await store.tenants.listTenants({ suspended: false }, page)).items)).toEqual(['c'])
      expect(ids((await store.tenants.listTenants({ hidden: true }, page)).items)).toEqual(['a'])
      expect(await store.tenants.setSuspension('a', null)).toEqual(newTenant('a'))
      expect(ids((await store.tenants.listTenants({ hidden: true }, page)).items)).toEqual([])
      expect(await store.tenants.setSuspension('nobody', kept)).toBeUndefined()
      expect(await store.tenants.getTenant('nobody')).toBeUndefined()
    })

    it('aborted signals - every method rejects with ABORTED before acting', async () => {
      const signal = AbortSignal.abort()
      await expect(store.tenants.registerTenant(newTenant('x'), { signal })).rejects.toMatchObject({ code: 'ABORTED' })
      await expect(store.tenants.getTenant('x', { signal })).rejects.toMatchObject({ code: 'ABORTED' })
      await expect(store.tenants.listTenants({}, { offset: 0, limit: 1 }, { signal })).rejects.toMatchObject({
        code: 'ABORTED',
      })
      await expect(store.tenants.setSuspension('x', null, { signal })).rejects.toMatchObject({ code: 'ABORTED' })
      expect(await store.tenants.getTenant('x')).toBeUndefined()
    })
  })
}
