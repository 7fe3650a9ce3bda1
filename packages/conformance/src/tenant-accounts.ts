import type { FileRecord, KeptTenantUsage, NewFile, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { at, contentFor, fileBuilder, newCid, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

const newFile = fileBuilder()
const THIRD_TENANT = 'tenant-c'

/** A small seeded generator (mulberry32): a failing sequence replays from its seed. */
function seeded(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    below: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  }
}

async function filesOf(store: RecordStore, tenantId: string): Promise<FileRecord[]> {
  const all: FileRecord[] = []
  for (const network of ['public', 'private'] as const) {
    let after: { createdAt: Date; id: string } | undefined
    for (;;) {
      const page = await store.files.listFiles(tenantId, network, {}, { limit: 1000, order: 'ASC', after })
      all.push(...page.items)
      if (!page.hasMore) break
      const last = page.items.at(-1)!
      after = { createdAt: last.createdAt, id: last.id }
    }
  }
  return all
}

/** The figures recounted from the records themselves, by the documented rule. */
async function recount(store: RecordStore, tenants: readonly string[]): Promise<Map<string, KeptTenantUsage>> {
  const filesBy = new Map<string, FileRecord[]>()
  const holders = new Map<string, Set<string>>()
  for (const tenantId of tenants) {
    const files = await filesOf(store, tenantId)
    filesBy.set(tenantId, files)
    for (const file of files) holders.set(file.cid, (holders.get(file.cid) ?? new Set()).add(tenantId))
  }
  const sizes = new Map<string, number>()
  for (const cid of holders.keys()) sizes.set(cid, (await store.files.getContent(cid))!.size)
  const figures = new Map<string, KeptTenantUsage>()
  for (const tenantId of tenants) {
    const files = filesBy.get(tenantId)!
    const cids = new Set(files.map((f) => f.cid))
    let soleBytes = 0
    let sharedBytes = 0
    for (const cid of cids) {
      if (holders.get(cid)!.size === 1) soleBytes += sizes.get(cid)!
      else sharedBytes += sizes.get(cid)!
    }
    figures.set(tenantId, {
      files: files.length,
      logicalBytes: files.reduce((sum, f) => sum + f.size, 0),
      contents: cids.size,
      soleBytes,
      sharedBytes,
    })
  }
  return figures
}

/** `TenantAccountRecordStore`: each tenant's figures under deduplication, and its limits. */
export function describeTenantAccounts(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`RecordStore conformance: ${name}: tenant accounts`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    const put = (fields: Partial<NewFile>, contentSize?: number) => {
      const file = newFile(fields)
      const content = { ...contentFor(file), ...(contentSize === undefined ? {} : { size: contentSize }) }
      return store.files.createFile(file, content)
    }

    it('keptUsage - a tenant never seen is all zeros', async () => {
      expect(await store.accounts.keptUsage('nobody')).toEqual({
        files: 0,
        logicalBytes: 0,
        contents: 0,
        soleBytes: 0,
        sharedBytes: 0,
      })
    })

    it('keptUsage - a content is its only holder’s, shared by every holder once a second tenant holds it, and sole again when it leaves', async () => {
      const cid = newCid()
      const first = await put({ cid, size: 100 }, 120)
      expect(await store.accounts.keptUsage(TENANT)).toEqual({
        files: 1,
        logicalBytes: 100,
        contents: 1,
        soleBytes: 120,
        sharedBytes: 0,
      })
      await put({ cid, size: 100, network: 'private' }) // a duplicate of one tenant counts once physically
      expect(await store.accounts.keptUsage(TENANT)).toMatchObject({
        files: 2,
        logicalBytes: 200,
        contents: 1,
        soleBytes: 120,
      })
      const other = await put({ cid, size: 100, tenantId: OTHER_TENANT })
      expect(await store.accounts.keptUsage(TENANT)).toMatchObject({ soleBytes: 0, sharedBytes: 120 })
      expect(await store.accounts.keptUsage(OTHER_TENANT)).toEqual({
        files: 1,
        logicalBytes: 100,
        contents: 1,
        soleBytes: 0,
        sharedBytes: 120,
      })
      await store.files.deleteFile(OTHER_TENANT, 'public', other.file.id)
      expect(await store.accounts.keptUsage(OTHER_TENANT)).toEqual({
        files: 0,
        logicalBytes: 0,
        contents: 0,
        soleBytes: 0,
        sharedBytes: 0,
      })
      expect(await store.accounts.keptUsage(TENANT)).toMatchObject({ soleBytes: 120, sharedBytes: 0 })
      await store.files.deleteFile(TENANT, 'public', first.file.id)
      expect(await store.accounts.keptUsage(TENANT)).toMatchObject({ files: 1, contents: 1, soleBytes: 120 })
    })

    it('createFile - past the quota is QUOTA_EXCEEDED and writes nothing', async () => {
      await put({ size: 60 })
      const before = await store.accounts.keptUsage(TENANT)
      const file = newFile({ size: 50 })
      await expect(
        store.files.createFile(file, contentFor(file), { quota: { maxLogicalBytes: 100 } }),
      ).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' })
      await expect(store.files.createFile(file, contentFor(file), { quota: { maxFiles: 1 } })).rejects.toMatchObject({
        code: 'QUOTA_EXCEEDED',
      })
      expect(await store.files.getFile(TENANT, 'public', file.id)).toBeUndefined()
      expect(await store.files.getContent(file.cid)).toBeUndefined()
      expect(await store.accounts.keptUsage(TENANT)).toEqual(before)
      // exactly at the limit fits; another tenant's figures are its own
      await store.files.createFile(file, contentFor(file), { quota: { maxLogicalBytes: 110, maxFiles: 2 } })
      await expect(put({ size: 1000, tenantId: OTHER_TENANT })).resolves.toBeDefined()
    })

    it('createFile - of concurrent creates at the limit exactly those that fit are stored', async () => {
      const files = Array.from({ length: 6 }, () => newFile({ size: 10 }))
      const results = await Promise.allSettled(
        files.map((file) => store.files.createFile(file, contentFor(file), { quota: { maxLogicalBytes: 35 } })),
      )
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3)
      for (const r of results) {
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'QUOTA_EXCEEDED' })
      }
      expect(await store.accounts.keptUsage(TENANT)).toMatchObject({ files: 3, logicalBytes: 30 })
    })

    it('limits - set, read and cleared per tenant', async () => {
      expect(await store.accounts.getLimits(TENANT)).toEqual({})
      expect(await store.accounts.setLimits(TENANT, { storageBytes: 2 ** 40, files: null })).toEqual({
        storageBytes: 2 ** 40,
        files: null,
      })
      expect(await store.accounts.getLimits(TENANT)).toEqual({ storageBytes: 2 ** 40, files: null })
      expect(await store.accounts.getLimits(OTHER_TENANT)).toEqual({})
      await store.accounts.setLimits(TENANT, { vectorizedFiles: 5 })
      expect(await store.accounts.getLimits(TENANT)).toEqual({ vectorizedFiles: 5 })
      await store.accounts.setLimits(TENANT, {})
      expect(await store.accounts.getLimits(TENANT)).toEqual({})
    })

    it('addRequestCounts - adds per tenant and window, answers this window and the one before, loses nothing to concurrency', async () => {
      const W = 29_000_000
      expect(await store.accounts.addRequestCounts([{ tenantId: TENANT, window: W, count: 0 }], W)).toEqual(
        new Map([[TENANT, { current: 0, previous: 0 }]]),
      )
      await store.accounts.addRequestCounts([{ tenantId: TENANT, window: W - 1, count: 7 }], W - 1)
      const totals = await store.accounts.addRequestCounts(
        [
          { tenantId: TENANT, window: W, count: 3 },
          { tenantId: OTHER_TENANT, window: W, count: 5 },
        ],
        W,
      )
      expect(totals).toEqual(
        new Map([
          [TENANT, { current: 3, previous: 7 }],
          [OTHER_TENANT, { current: 5, previous: 0 }],
        ]),
      )
      // twenty processes flushing at once: every count lands
      await Promise.all(
        Array.from({ length: 20 }, () =>
          store.accounts.addRequestCounts([{ tenantId: TENANT, window: W, count: 2 }], W),
        ),
      )
      const read = await store.accounts.addRequestCounts([{ tenantId: TENANT, window: W + 1, count: 1 }], W + 1)
      expect(read.get(TENANT)).toEqual({ current: 1, previous: 43 })

      await store.accounts.dropRequestCountsBefore(W)
      expect(
        (await store.accounts.addRequestCounts([{ tenantId: TENANT, window: W, count: 0 }], W)).get(TENANT),
      ).toEqual({
        current: 43,
        previous: 0,
      })
    })

    it('keptUsage - after random uploads, cross-tenant duplicates, deletes and expiries, equals a recount', async () => {
      const tenants = [TENANT, OTHER_TENANT, THIRD_TENANT] as const
      const random = seeded(20261128)
      const live: FileRecord[] = []
      for (let step = 0; step < 120; step++) {
        const roll = random.below(10)
        if (roll < 4 || live.length === 0) {
          const expiresAt = random.below(4) === 0 ? at(1000) : null
          const created = await put({
            tenantId: random.pick(tenants),
            network: random.pick(['public', 'private'] as const),
            size: 1 + random.below(5000),
            expiresAt,
          })
          live.push(created.file)
        } else if (roll < 7) {
          // the same content again, by any tenant (its size as the first upload recorded it)
          const existing = random.pick(live)
          const created = await put({
            tenantId: random.pick(tenants),
            network: random.pick(['public', 'private'] as const),
            cid: existing.cid,
            size: existing.size,
          })
          live.push(created.file)
        } else if (roll < 9) {
          const gone = live.splice(random.below(live.length), 1)[0]!
          expect(await store.files.deleteFile(gone.tenantId, gone.network, gone.id)).toBeDefined()
        } else {
          // an expiry sweep: what has expired is deleted through deleteFile, as core's sweep does
          for (const file of await store.gateway.listExpiredFiles(at(2000), 1000)) {
            await store.files.deleteFile(file.tenantId, file.network, file.id)
            const index = live.findIndex((f) => f.id === file.id)
            if (index >= 0) live.splice(index, 1)
          }
        }
      }
      const expected = await recount(store, tenants)
      for (const tenantId of tenants) {
        expect({ tenantId, ...(await store.accounts.keptUsage(tenantId)) }).toEqual({
          tenantId,
          ...expected.get(tenantId),
        })
      }
      expect(live.length).toBeGreaterThan(0)
    })
  })
}
