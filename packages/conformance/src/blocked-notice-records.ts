import type { BlockedNotice, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { newEvent } from './event-records.js'
import { OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

/**
 * `DenyRuleRecordStore`'s held-content notices and scan position: a `content.blocked` notice is
 * recorded once per tenant, CID and rule (list, line), its event appended only when the notice is
 * new and in the same step, whoever records it and however often; the scan's position is kept.
 */
export function describeBlockedNoticeRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`DenyRuleRecordStore held-content notices conformance: ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    const notice = (tenantId: string, cid: string, list: string, line: number): BlockedNotice => ({
      tenantId,
      cid,
      list,
      line,
      event: newEvent('content.blocked', cid, { tenantId, target: { kind: 'cid', id: cid }, data: { list, line } }),
    })
    const logged = async (tenantId: string) =>
      (await store.events.listEvents({ tenantId }, { limit: 100, order: 'asc' })).items.map(
        (e) => `${e.type} ${e.target.id} ${String(e.data.list)}:${String(e.data.line)}`,
      )
    const key = (n: BlockedNotice) => `${n.tenantId} ${n.cid} ${n.list}:${n.line}`

    it('recordBlockedNotices - each (tenant, CID, list, line) once, its event with it; repeats and duplicates are skipped', async () => {
      const first = [notice(TENANT, 'bafy-a', 'badbits', 3), notice(OTHER_TENANT, 'bafy-a', 'badbits', 3)]
      expect((await store.denyRules.recordBlockedNotices(first)).map(key)).toEqual(first.map(key))
      const again = [
        notice(TENANT, 'bafy-a', 'badbits', 3), // recorded already
        notice(TENANT, 'bafy-a', 'badbits', 9), // another line of the same list: another rule
        notice(TENANT, 'bafy-a', 'operator', 3), // another list
        notice(TENANT, 'bafy-b', 'badbits', 3), // another CID
        notice(TENANT, 'bafy-b', 'badbits', 3), // twice in one call
      ]
      expect((await store.denyRules.recordBlockedNotices(again)).map(key)).toEqual([
        `${TENANT} bafy-a badbits:9`,
        `${TENANT} bafy-a operator:3`,
        `${TENANT} bafy-b badbits:3`,
      ])
      expect(await store.denyRules.recordBlockedNotices(first)).toEqual([])
      expect(await logged(TENANT)).toEqual([
        'content.blocked bafy-a badbits:3',
        'content.blocked bafy-a badbits:9',
        'content.blocked bafy-a operator:3',
        'content.blocked bafy-b badbits:3',
      ])
      expect(await logged(OTHER_TENANT)).toEqual(['content.blocked bafy-a badbits:3'])
    })

    it('recordBlockedNotices - callers racing with the same notices record each once, with one event', async () => {
      const notices = [notice(TENANT, 'bafy-race', 'list', 1), notice(TENANT, 'bafy-race', 'list', 2)]
      const results = await Promise.all(Array.from({ length: 4 }, () => store.denyRules.recordBlockedNotices(notices)))
      expect(results.flat().map(key).sort()).toEqual(notices.map(key).sort())
      expect(await logged(TENANT)).toHaveLength(2)
    })

    it('getBlockedScan / putBlockedScan - nothing until saved, then the last save', async () => {
      expect(await store.denyRules.getBlockedScan()).toBeUndefined()
      await store.denyRules.putBlockedScan({ fingerprint: 'f1', cursor: 'bafy-m' })
      expect(await store.denyRules.getBlockedScan()).toEqual({ fingerprint: 'f1', cursor: 'bafy-m' })
      await store.denyRules.putBlockedScan({ fingerprint: 'f2', cursor: null })
      expect(await store.denyRules.getBlockedScan()).toEqual({ fingerprint: 'f2', cursor: null })
    })
  })
}
