import type { BlockedNotice, NewFile, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { MALFORMED_EVENT, newEvent } from './event-records.js'
import { contentFor, fileBuilder, OTHER_TENANT, TENANT } from './fixtures.js'
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

    it('createFile with blockedNotices - a new notice is recorded with the file, its event once; a notice told before adds only the file; a bad event writes neither', async () => {
      const newFile = fileBuilder()
      const create = (file: NewFile, notices: BlockedNotice[]) =>
        store.files.createFile(file, contentFor(file), {
          events: [newEvent('file.created', file.id, { tenantId: file.tenantId })],
          blockedNotices: notices,
        })
      const arrived = newFile()
      await create(arrived, [notice(TENANT, arrived.cid, 'badbits', 3)])
      // the scan finds it told, and so does a second upload of the same content
      expect(await store.denyRules.recordBlockedNotices([notice(TENANT, arrived.cid, 'badbits', 3)])).toEqual([])
      const again = newFile({ cid: arrived.cid, network: 'private' })
      await create(again, [notice(TENANT, arrived.cid, 'badbits', 3)])
      // told by the scan first, an upload is not told again; another tenant's notice is its own
      const held = newFile()
      await store.denyRules.recordBlockedNotices([notice(TENANT, held.cid, 'badbits', 3)])
      await create(held, [notice(TENANT, held.cid, 'badbits', 3)])
      const theirs = newFile({ cid: arrived.cid, tenantId: OTHER_TENANT })
      await create(theirs, [notice(OTHER_TENANT, arrived.cid, 'badbits', 3)])

      const blocked = async (tenantId: string) => (await logged(tenantId)).filter((e) => e.startsWith('content.'))
      expect(await blocked(TENANT)).toEqual([
        `content.blocked ${arrived.cid} badbits:3`,
        `content.blocked ${held.cid} badbits:3`,
      ])
      expect(await blocked(OTHER_TENANT)).toEqual([`content.blocked ${arrived.cid} badbits:3`])
      expect((await logged(TENANT)).filter((e) => e.startsWith('file.created'))).toHaveLength(3)

      const refused = newFile()
      const bad = { ...notice(TENANT, refused.cid, 'badbits', 3), event: MALFORMED_EVENT(refused.cid) }
      await expect(create(refused, [bad])).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      expect(await store.files.getFile(TENANT, 'public', refused.id)).toBeUndefined()
      // nor its notice: it is still new
      expect(await store.denyRules.recordBlockedNotices([notice(TENANT, refused.cid, 'badbits', 3)])).toHaveLength(1)
    })

    it('addDenyRule with blockedNotices - recorded on the line the rule is given, their events with it; found told afterwards; a failed add records none', async () => {
      // an add's entry names no line (the rule has none until the store gives it one)
      const entry = (tenantId: string, cid: string) =>
        newEvent('content.blocked', cid, { tenantId, target: { kind: 'cid', id: cid }, data: { list: 'operator' } })
      const told = (tenantId: string, cid: string, event = entry(tenantId, cid)) => ({
        tenantId,
        cid,
        list: 'operator',
        event,
      })
      await store.denyRules.addDenyRule({ id: 'r0', rule: '/ipfs/bafy-before', createdAt: new Date() })
      const rule = await store.denyRules.addDenyRule(
        { id: 'r1', rule: '/ipfs/bafy-a', createdAt: new Date() },
        {
          events: [newEvent('deny_rule.added', 'r1', { tenantId: '' })],
          blockedNotices: [told(TENANT, 'bafy-a'), told(OTHER_TENANT, 'bafy-a'), told(TENANT, 'bafy-a')],
        },
      )
      expect(rule.line).toBeGreaterThan(1)
      // the line the store gave the rule, not one the caller guessed: later looks find both told
      const later = [
        notice(TENANT, 'bafy-a', 'operator', rule.line),
        notice(OTHER_TENANT, 'bafy-a', 'operator', rule.line),
      ]
      expect(await store.denyRules.recordBlockedNotices(later)).toEqual([])
      expect((await store.denyRules.recordBlockedNotices([notice(TENANT, 'bafy-a', 'operator', 1)])).map(key)).toEqual([
        `${TENANT} bafy-a operator:1`,
      ])
      expect(await logged(TENANT)).toEqual([
        'content.blocked bafy-a operator:undefined',
        'content.blocked bafy-a operator:1',
      ])
      expect(await logged(OTHER_TENANT)).toEqual(['content.blocked bafy-a operator:undefined'])
      expect((await logged('')).filter((e) => e.startsWith('deny_rule.added'))).toHaveLength(1)

      // a reused id, or a notice whose event the log refuses: neither the rule nor any notice is kept
      const refused = [told(TENANT, 'bafy-b'), told(OTHER_TENANT, 'bafy-b', MALFORMED_EVENT('bafy-b'))]
      await expect(
        store.denyRules.addDenyRule(
          { id: 'r2', rule: '/ipfs/bafy-b', createdAt: new Date() },
          { blockedNotices: refused },
        ),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      await expect(
        store.denyRules.addDenyRule(
          { id: 'r1', rule: '/ipfs/bafy-b', createdAt: new Date() },
          { blockedNotices: [told(TENANT, 'bafy-b')] },
        ),
      ).rejects.toMatchObject({ code: 'CONFLICT' })
      expect((await store.denyRules.listDenyRules()).map((r) => r.id)).toEqual(['r0', 'r1'])
      const next = await store.denyRules.addDenyRule({ id: 'r3', rule: '/ipfs/bafy-b', createdAt: new Date() })
      const lines = Array.from({ length: next.line - rule.line }, (_, i) => rule.line + 1 + i)
      const untold = lines.map((line) => notice(TENANT, 'bafy-b', 'operator', line))
      expect(await store.denyRules.recordBlockedNotices(untold)).toHaveLength(untold.length)
      expect(await logged(OTHER_TENANT)).toEqual(['content.blocked bafy-a operator:undefined'])
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
