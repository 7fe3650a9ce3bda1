import { type GatewayUsageCount, type GatewayUsageQuery, OTHER_USAGE_CID, type RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { newCid, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

/** Far above what any test here writes, but for the tests of the cap. */
const LIMITS = { rowsPerTenantDay: 1000 }

/** The UsageRecordStore contract: batched gateway counts that add up, their rankings, storage totals. */
export function describeUsageRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`UsageRecordStore conformance: ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    const A = newCid()
    const B = newCid()
    const count = (fields: Partial<GatewayUsageCount>): GatewayUsageCount => ({
      tenantId: TENANT,
      day: '2026-01-01',
      cid: A,
      fileName: 'a.png',
      status: 200,
      requests: 1,
      bytes: 100,
      ...fields,
    })
    const JANUARY: GatewayUsageQuery = { from: '2026-01-01', to: '2026-01-31' }

    it('addGatewayUsage - counts of one key add up across calls and within a call', async () => {
      await store.usage.addGatewayUsage([count({}), count({ requests: 2, bytes: 50 })], LIMITS)
      await store.usage.addGatewayUsage([count({ requests: 3, bytes: 1 })], LIMITS)
      expect(await store.usage.gatewayUsageByDay(TENANT, JANUARY)).toEqual([
        { day: '2026-01-01', requests: 6, bytes: 151 },
      ])
    })

    it('addGatewayUsage - concurrent batches (several servers flushing) lose no count', async () => {
      const batch = [count({}), count({ cid: B, fileName: 'b.png' }), count({ status: 206 })]
      await Promise.all(Array.from({ length: 10 }, () => store.usage.addGatewayUsage(batch, LIMITS)))
      expect(await store.usage.gatewayUsageByDay(TENANT, JANUARY)).toEqual([
        { day: '2026-01-01', requests: 30, bytes: 3000 },
      ])
    })

    it('addGatewayUsage - an empty batch changes nothing', async () => {
      await store.usage.addGatewayUsage([], LIMITS)
      expect(await store.usage.gatewayUsageByDay(TENANT, JANUARY)).toEqual([])
    })

    it('addGatewayUsage - past rowsPerTenantDay new rows of a tenant\'s day go to its "other" row; counts still add up', async () => {
      const three = { rowsPerTenantDay: 3 }
      const cids = Array.from({ length: 5 }, () => newCid())
      await store.usage.addGatewayUsage([count({ cid: cids[0] }), count({ cid: cids[1] })], three)
      await store.usage.addGatewayUsage(
        [
          count({ cid: cids[0], bytes: 1 }), // an existing row: still added to it
          count({ cid: cids[2], status: 404 }),
          count({ cid: cids[3] }),
          count({ cid: cids[4], requests: 2, bytes: 7 }),
          count({ day: '2026-01-02', cid: cids[3] }), // another day has rows of its own
          count({ tenantId: OTHER_TENANT, cid: cids[4] }), // so has another tenant
        ],
        three,
      )
      await store.usage.addGatewayUsage([count({ cid: cids[1] }), count({ cid: newCid() })], three)
      const ranked = await store.usage.rankGatewayUsage(
        TENANT,
        { from: '2026-01-01', to: '2026-01-01' },
        { by: 'cid', sortBy: 'requests', order: 'desc', limit: 100 },
      )
      expect(ranked.map((r) => r.value).sort()).toEqual([cids[0], cids[1], cids[2], OTHER_USAGE_CID].sort())
      expect(ranked.find((r) => r.value === OTHER_USAGE_CID)).toEqual({
        value: OTHER_USAGE_CID,
        requests: 4,
        bytes: 207,
      })
      expect(ranked.find((r) => r.value === cids[0])).toEqual({ value: cids[0], requests: 2, bytes: 101 })
      expect(await store.usage.gatewayUsageByDay(TENANT, JANUARY)).toEqual([
        { day: '2026-01-01', requests: 9, bytes: 608 },
        { day: '2026-01-02', requests: 1, bytes: 100 },
      ])
      expect(await store.usage.gatewayUsageByDay(OTHER_TENANT, JANUARY)).toEqual([
        { day: '2026-01-01', requests: 1, bytes: 100 },
      ])
    })

    it('addGatewayUsage - concurrent batches of new rows never make more than rowsPerTenantDay of a day', async () => {
      const five = { rowsPerTenantDay: 5 }
      await Promise.all(
        Array.from({ length: 8 }, () =>
          store.usage.addGatewayUsage([count({ cid: newCid() }), count({ cid: newCid() })], five),
        ),
      )
      const ranked = await store.usage.rankGatewayUsage(
        TENANT,
        { from: '2026-01-01', to: '2026-01-01' },
        { by: 'cid', sortBy: 'requests', order: 'desc', limit: 100 },
      )
      expect(ranked.filter((r) => r.value !== OTHER_USAGE_CID)).toHaveLength(5)
      expect(ranked.find((r) => r.value === OTHER_USAGE_CID)).toMatchObject({ requests: 11 })
    })

    it('gatewayUsageByDay - one total per day, oldest first, inside [from, to], filtered by CID and file name', async () => {
      await store.usage.addGatewayUsage(
        [
          count({ day: '2026-01-03', bytes: 10 }),
          count({ day: '2026-01-01', cid: B, fileName: 'b.png', bytes: 20 }),
          count({ day: '2026-01-01', status: 404, bytes: 0 }),
          count({ day: '2025-12-31', bytes: 99 }),
          count({ day: '2026-02-01', bytes: 99 }),
          count({ tenantId: OTHER_TENANT, bytes: 99 }),
        ],
        LIMITS,
      )
      expect(await store.usage.gatewayUsageByDay(TENANT, JANUARY)).toEqual([
        { day: '2026-01-01', requests: 2, bytes: 20 },
        { day: '2026-01-03', requests: 1, bytes: 10 },
      ])
      expect(await store.usage.gatewayUsageByDay(TENANT, { ...JANUARY, cid: B })).toEqual([
        { day: '2026-01-01', requests: 1, bytes: 20 },
      ])
      expect(await store.usage.gatewayUsageByDay(TENANT, { ...JANUARY, fileName: 'a.png' })).toEqual([
        { day: '2026-01-01', requests: 1, bytes: 0 },
        { day: '2026-01-03', requests: 1, bytes: 10 },
      ])
      expect(await store.usage.gatewayUsageByDay(TENANT, { from: '2026-01-02', to: '2026-01-02' })).toEqual([])
    })

    it('rankGatewayUsage - groups by CID or file name, sorts by requests or bytes either way, limits', async () => {
      const C = newCid()
      await store.usage.addGatewayUsage(
        [
          count({ cid: A, fileName: 'a.png', requests: 5, bytes: 10 }),
          count({ cid: B, fileName: 'b.png', requests: 1, bytes: 500 }),
          count({ cid: C, fileName: 'a.png', requests: 2, bytes: 30, day: '2026-01-09' }),
          count({ tenantId: OTHER_TENANT, cid: B, requests: 100, bytes: 1 }),
        ],
        LIMITS,
      )
      const rank = (ranking: Parameters<RecordStore['usage']['rankGatewayUsage']>[2], query = JANUARY) =>
        store.usage.rankGatewayUsage(TENANT, query, ranking)
      expect(await rank({ by: 'cid', sortBy: 'requests', order: 'desc', limit: 10 })).toEqual([
        { value: A, requests: 5, bytes: 10 },
        { value: C, requests: 2, bytes: 30 },
        { value: B, requests: 1, bytes: 500 },
      ])
      expect(await rank({ by: 'cid', sortBy: 'bytes', order: 'asc', limit: 2 })).toEqual([
        { value: A, requests: 5, bytes: 10 },
        { value: C, requests: 2, bytes: 30 },
      ])
      expect(await rank({ by: 'fileName', sortBy: 'bytes', order: 'desc', limit: 10 })).toEqual([
        { value: 'b.png', requests: 1, bytes: 500 },
        { value: 'a.png', requests: 7, bytes: 40 },
      ])
      expect(
        await rank({ by: 'fileName', sortBy: 'requests', order: 'desc', limit: 10 }, { ...JANUARY, cid: C }),
      ).toEqual([{ value: 'a.png', requests: 2, bytes: 30 }])
    })

    it('rankGatewayUsage - ties are ordered by the grouped value, ascending', async () => {
      const [first, second] = [A, B].sort()
      await store.usage.addGatewayUsage(
        [count({ cid: second!, fileName: 'x' }), count({ cid: first!, fileName: 'x' })],
        LIMITS,
      )
      const ranked = await store.usage.rankGatewayUsage(TENANT, JANUARY, {
        by: 'cid',
        sortBy: 'requests',
        order: 'desc',
        limit: 10,
      })
      expect(ranked.map((r) => r.value)).toEqual([first, second])
    })
  })
}
