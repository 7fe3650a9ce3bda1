import type { EventRecord, NewEvent, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { contentFor, fileBuilder, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

const newFile = fileBuilder()

/** An event of `TENANT` by a user, of `type`, about `targetId`. */
export function newEvent(type: string, targetId: string, fields: Partial<NewEvent> = {}): NewEvent {
  return {
    tenantId: TENANT,
    type,
    actor: { kind: 'user', id: 'user-1' },
    requestId: 'req-1',
    target: { kind: 'file', id: targetId },
    data: { cid: 'bafkreiexample', size: 12 },
    ...fields,
  }
}

/** An event the log must refuse: its type is not dotted lowercase, as an adapter bug or a bad caller would make. */
export const MALFORMED_EVENT = (targetId: string): NewEvent => newEvent('File Created', targetId)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The EventRecordStore contract and the rule it exists for: an event rides in the options of the
 * write it records and is appended in the same atomic step, so there is no change without its entry
 * and no entry without its change (shown here on createFile, updateFile, deleteFile and deny rules:
 * every write with `RecordedOptions` goes through the one helper of its adapter).
 */
export function describeEventRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`EventRecordStore conformance: ${name}`, () => {
    let h: RecordStoreHarness
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      h = next
      store = next.store
    })

    const all = async (tenantId?: string) =>
      (await store.events.listEvents({ tenantId }, { limit: 1000, order: 'asc' })).items

    it('createFile - the event is appended with the file, with a store-chosen id, seq and time', async () => {
      const file = newFile()
      const before = new Date(Date.now() - 1000)
      await store.files.createFile(file, contentFor(file), { events: [newEvent('file.created', file.id)] })
      const [event, ...rest] = await all(TENANT)
      expect(rest).toEqual([])
      expect(event).toMatchObject({ ...newEvent('file.created', file.id), tenantId: TENANT })
      expect(event!.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(event!.seq).toBeGreaterThan(0)
      expect(event!.at.getTime()).toBeGreaterThanOrEqual(before.getTime())
    })

    it('no entry without its change: a refused write appends nothing', async () => {
      const file = newFile()
      await store.files.createFile(file, contentFor(file))
      // the same id again is a CONFLICT: the change fails, so its event must not be written
      await expect(
        store.files.createFile(file, contentFor(file), { events: [newEvent('file.created', file.id)] }),
      ).rejects.toMatchObject({ code: 'CONFLICT' })
      // a delete or an update that finds nothing changes nothing and records nothing
      expect(
        await store.files.deleteFile(TENANT, 'public', newFile().id, { events: [newEvent('file.deleted', 'x')] }),
      ).toBeUndefined()
      expect(
        await store.files.updateFile(
          TENANT,
          'public',
          newFile().id,
          { name: 'n' },
          {
            events: [newEvent('file.updated', 'x')],
          },
        ),
      ).toBeUndefined()
      expect(
        await store.denyRules.removeDenyRule('no-such-rule', { events: [newEvent('deny_rule.removed', 'x')] }),
      ).toBe(false)
      expect(await all()).toEqual([])
    })

    it('no change without its entry: an event that cannot be written undoes its change', async () => {
      const file = newFile()
      await expect(
        store.files.createFile(file, contentFor(file), {
          events: [newEvent('file.created', file.id), MALFORMED_EVENT(file.id)],
        }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      expect(await store.files.getFile(TENANT, 'public', file.id)).toBeUndefined()
      expect(await store.files.getContent(file.cid)).toBeUndefined()
      if (h.probe) expect(await h.probe.countFiles()).toBe(0)

      await store.files.createFile(file, contentFor(file))
      await expect(
        store.files.updateFile(TENANT, 'public', file.id, { name: 'renamed' }, { events: [MALFORMED_EVENT(file.id)] }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      expect((await store.files.getFile(TENANT, 'public', file.id))?.name).toBe(file.name)
      await expect(
        store.files.deleteFile(TENANT, 'public', file.id, { events: [MALFORMED_EVENT(file.id)] }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      expect(await store.files.getFile(TENANT, 'public', file.id)).toBeDefined()
      expect(await store.files.getContent(file.cid)).toBeDefined()

      await expect(
        store.denyRules.addDenyRule(
          { id: 'r1', rule: '/ipfs/bafy', createdAt: new Date() },
          { events: [MALFORMED_EVENT('r1')] },
        ),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      expect(await store.denyRules.listDenyRules()).toEqual([])
      expect(await all()).toEqual([])
    })

    it('updateFile and deleteFile append their events with the change', async () => {
      const file = newFile()
      await store.files.createFile(file, contentFor(file))
      await store.files.updateFile(
        TENANT,
        'public',
        file.id,
        { name: 'renamed' },
        { events: [newEvent('file.updated', file.id)] },
      )
      await store.files.deleteFile(TENANT, 'public', file.id, { events: [newEvent('file.deleted', file.id)] })
      expect((await all()).map((e) => e.type)).toEqual(['file.updated', 'file.deleted'])
    })

    it('appendEvents - seq increases in append order; all or none', async () => {
      const [a, b] = await store.events.appendEvents([newEvent('quota.reached', 't1'), newEvent('quota.reached', 't2')])
      const [c] = await store.events.appendEvents([newEvent('content.blocked', 't3')])
      expect(a!.seq).toBeLessThan(b!.seq)
      expect(b!.seq).toBeLessThan(c!.seq)
      await expect(
        store.events.appendEvents([newEvent('quota.reached', 't4'), MALFORMED_EVENT('t5')]),
      ).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      })
      expect((await all()).map((e) => e.target.id)).toEqual(['t1', 't2', 't3'])
    })

    it('listEvents - newest first or oldest first, paged by seq, filtered by tenant, types and time', async () => {
      const appended: EventRecord[] = []
      for (let i = 0; i < 5; i++) {
        appended.push(
          ...(await store.events.appendEvents([newEvent(i % 2 ? 'file.deleted' : 'file.created', `f${i}`)])),
        )
      }
      await store.events.appendEvents([newEvent('file.created', 'other', { tenantId: OTHER_TENANT })])
      const firstPage = await store.events.listEvents({ tenantId: TENANT }, { limit: 2, order: 'desc' })
      expect(firstPage.items.map((e) => e.target.id)).toEqual(['f4', 'f3'])
      expect(firstPage.hasMore).toBe(true)
      const next = await store.events.listEvents(
        { tenantId: TENANT },
        { limit: 10, order: 'desc', afterSeq: firstPage.items.at(-1)!.seq },
      )
      expect(next).toEqual({ items: appended.slice(0, 3).reverse(), hasMore: false })
      const ascending = await store.events.listEvents(
        { tenantId: TENANT },
        { limit: 2, order: 'asc', afterSeq: appended[0]!.seq },
      )
      expect(ascending.items.map((e) => e.target.id)).toEqual(['f1', 'f2'])
      const deletes = await store.events.listEvents(
        { tenantId: TENANT, types: ['file.deleted'] },
        { limit: 10, order: 'asc' },
      )
      expect(deletes.items.map((e) => e.target.id)).toEqual(['f1', 'f3'])
      const both = await store.events.listEvents(
        { types: ['file.deleted', 'file.created'] },
        { limit: 10, order: 'asc' },
      )
      expect(both.items).toHaveLength(6)
      // the operator's view: every tenant's
      expect((await all()).map((e) => e.tenantId)).toContain(OTHER_TENANT)
      expect((await all(OTHER_TENANT)).map((e) => e.target.id)).toEqual(['other'])
      expect(await all('nobody')).toEqual([])
      const last = appended.at(-1)!.at
      const later = new Date(last.getTime() + 1)
      expect(
        (await store.events.listEvents({ tenantId: TENANT, from: later }, { limit: 10, order: 'asc' })).items,
      ).toEqual([])
      expect(
        (await store.events.listEvents({ tenantId: TENANT, to: later }, { limit: 10, order: 'asc' })).items,
      ).toHaveLength(5)
      expect(
        (
          await store.events.listEvents(
            { tenantId: TENANT, from: appended[0]!.at, to: appended[0]!.at },
            { limit: 10, order: 'asc' },
          )
        ).items,
      ).toEqual([])
    })

    it('pruneEvents - removes only events older than the cut, oldest first, at most `limit` a call', async () => {
      await store.events.appendEvents([newEvent('file.created', 'old-1')])
      await store.events.appendEvents([newEvent('file.created', 'old-2')])
      await sleep(20)
      const cut = new Date()
      await sleep(20)
      await store.events.appendEvents([newEvent('file.created', 'new')])
      expect(await store.events.pruneEvents(cut, 1)).toBe(1)
      expect((await all()).map((e) => e.target.id)).toEqual(['old-2', 'new'])
      expect(await store.events.pruneEvents(cut, 100)).toBe(1)
      expect(await store.events.pruneEvents(cut, 100)).toBe(0)
      expect((await all()).map((e) => e.target.id)).toEqual(['new'])
    })

    it('deny rules - lines increase and are never reused; add and remove append their events', async () => {
      const first = await store.denyRules.addDenyRule(
        { id: 'r1', rule: '/ipfs/bafy1', createdAt: new Date('2026-01-01T00:00:00Z') },
        { events: [newEvent('deny_rule.added', 'r1', { tenantId: '' })] },
      )
      const second = await store.denyRules.addDenyRule({ id: 'r2', rule: '//abc', createdAt: new Date() })
      expect(first).toEqual({
        id: 'r1',
        rule: '/ipfs/bafy1',
        line: first.line,
        createdAt: new Date('2026-01-01T00:00:00Z'),
      })
      expect(second.line).toBeGreaterThan(first.line)
      await expect(store.denyRules.addDenyRule({ id: 'r1', rule: '//x', createdAt: new Date() })).rejects.toMatchObject(
        {
          code: 'CONFLICT',
        },
      )
      expect(
        await store.denyRules.removeDenyRule('r2', { events: [newEvent('deny_rule.removed', 'r2', { tenantId: '' })] }),
      ).toBe(true)
      const third = await store.denyRules.addDenyRule({ id: 'r3', rule: '//def', createdAt: new Date() })
      expect(third.line).toBeGreaterThan(second.line)
      expect((await store.denyRules.listDenyRules()).map((r) => r.id)).toEqual(['r1', 'r3'])
      expect((await all('')).map((e) => e.type)).toEqual(['deny_rule.added', 'deny_rule.removed'])
    })
  })
}
