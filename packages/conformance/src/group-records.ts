import { randomUUID } from 'node:crypto'
import type { GroupFilter, GroupRecord, Network, PageRequest, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { fileFixtures } from './file-fixtures.js'
import { at, newGroup, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import { ids, sortByKey, walkPages } from './paging.js'
import type { RecordStoreHarness } from './record-store.js'

/**
 * The groups part of the RecordStore contract (`records.groups`); a group's files are read back
 * through the files part.
 */
export function describeGroupRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`RecordStore conformance: ${name}: groups`, () => {
    let h: RecordStoreHarness
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      h = next
      store = next.store
    })

    const { expectCounts, addFile, listAll } = fileFixtures(() => h)

    const listAllGroups = (filter: GroupFilter, tenantId = TENANT, network: Network = 'public') =>
      store.groups.listGroups(tenantId, network, filter, { limit: 1000, order: 'ASC' })

    describe('groups', () => {
      it('createGroup - stores the group and returns it', async () => {
        const group = newGroup({ isPublic: true, createdAt: at(7) })
        expect(await store.groups.createGroup(group)).toEqual(group)
        expect(await store.groups.getGroup(TENANT, 'public', group.id)).toEqual(group)
      })

      it('createGroup - reusing an id is CONFLICT and the first group stays', async () => {
        const group = await store.groups.createGroup(newGroup())
        await expect(store.groups.createGroup(newGroup({ id: group.id, name: 'other' }))).rejects.toMatchObject({
          code: 'CONFLICT',
        })
        await expect(
          store.groups.createGroup(newGroup({ id: group.id, tenantId: OTHER_TENANT, network: 'private' })),
        ).rejects.toMatchObject({ code: 'CONFLICT' })
        expect(await store.groups.getGroup(TENANT, 'public', group.id)).toEqual(group)
      })

      it('getGroup - another tenant, the other network or an unknown id sees undefined', async () => {
        const group = await store.groups.createGroup(newGroup())
        expect(await store.groups.getGroup(OTHER_TENANT, 'public', group.id)).toBeUndefined()
        expect(await store.groups.getGroup(TENANT, 'private', group.id)).toBeUndefined()
        expect(await store.groups.getGroup(TENANT, 'public', randomUUID())).toBeUndefined()
        expect(await store.groups.getGroup(TENANT, 'public', 'not-a-uuid')).toBeUndefined()
      })

      it('listGroups - returns only the tenant’s groups on that network', async () => {
        const mine = await store.groups.createGroup(newGroup())
        await store.groups.createGroup(newGroup({ tenantId: OTHER_TENANT }))
        await store.groups.createGroup(newGroup({ network: 'private' }))
        expect(ids((await listAllGroups({})).items)).toEqual([mine.id])
        expect((await listAllGroups({}, OTHER_TENANT)).items).toHaveLength(1)
        expect((await listAllGroups({}, TENANT, 'private')).items).toHaveLength(1)
      })

      it('listGroups - nameContains matches anywhere in the name, literally, ignoring case; offset skips', async () => {
        const a = await store.groups.createGroup(newGroup({ name: 'Blue Team', createdAt: at(1) }))
        const b = await store.groups.createGroup(newGroup({ name: 'team_red', createdAt: at(2) }))
        await store.groups.createGroup(newGroup({ name: 'teal' }))
        expect(ids((await listAllGroups({ nameContains: 'TEAM' })).items)).toEqual(ids([a, b]))
        expect(ids((await listAllGroups({ nameContains: 'm_' })).items)).toEqual(ids([b]))
        const skipped = await store.groups.listGroups(
          TENANT,
          'public',
          { nameContains: 'team' },
          { limit: 5, order: 'ASC', offset: 1 },
        )
        expect(ids(skipped.items)).toEqual(ids([b]))
      })

      it('listGroups - filters by namePrefix and isPublic, combined with AND', async () => {
        const a = await store.groups.createGroup(newGroup({ name: 'team_a', isPublic: true, createdAt: at(1) }))
        const b = await store.groups.createGroup(newGroup({ name: 'team_b', isPublic: false, createdAt: at(2) }))
        await store.groups.createGroup(newGroup({ name: 'teamXc', isPublic: true }))
        await store.groups.createGroup(newGroup({ name: 'Team_d', isPublic: true }))
        expect(ids((await listAllGroups({ namePrefix: 'team_' })).items)).toEqual(ids([a, b]))
        expect(ids((await listAllGroups({ namePrefix: 'team_', isPublic: true })).items)).toEqual([a.id])
        expect(ids((await listAllGroups({ namePrefix: 'team_', isPublic: false })).items)).toEqual([b.id])
        expect((await listAllGroups({ isPublic: true })).items).toHaveLength(3)
      })

      it.each([
        ['ASC', 1],
        ['DESC', 2],
      ] as const)(
        'listGroups - keyset paging %s by %i visits every group once, ties included',
        async (order, limit) => {
          const groups: GroupRecord[] = []
          for (const second of [2, 0, 0, 0, 1, 4])
            groups.push(await store.groups.createGroup(newGroup({ createdAt: at(second) })))
          const seen = await walkPages((page) => store.groups.listGroups(TENANT, 'public', {}, page), limit, order)
          expect(ids(seen)).toEqual(ids(sortByKey(groups, order)))
        },
      )

      it('updateGroup - changes name and isPublic; another tenant or network gets undefined', async () => {
        const group = await store.groups.createGroup(newGroup())
        expect(await store.groups.updateGroup(TENANT, 'public', group.id, { name: 'renamed' })).toEqual({
          ...group,
          name: 'renamed',
        })
        const updated = await store.groups.updateGroup(TENANT, 'public', group.id, { isPublic: true })
        expect(updated).toEqual({ ...group, name: 'renamed', isPublic: true })
        expect(await store.groups.updateGroup(TENANT, 'public', group.id, {})).toEqual(updated)
        expect(await store.groups.updateGroup(OTHER_TENANT, 'public', group.id, { name: 'x' })).toBeUndefined()
        expect(await store.groups.updateGroup(TENANT, 'private', group.id, { name: 'x' })).toBeUndefined()
        expect(await store.groups.updateGroup(TENANT, 'public', 'not-a-uuid', { name: 'x' })).toBeUndefined()
        expect(await store.groups.getGroup(TENANT, 'public', group.id)).toEqual(updated)
      })

      it('deleteGroup - true once, then false; another tenant or network gets false', async () => {
        const group = await store.groups.createGroup(newGroup())
        expect(await store.groups.deleteGroup(OTHER_TENANT, 'public', group.id)).toBe(false)
        expect(await store.groups.deleteGroup(TENANT, 'private', group.id)).toBe(false)
        expect(await store.groups.deleteGroup(TENANT, 'public', 'not-a-uuid')).toBe(false)
        expect(await store.groups.deleteGroup(TENANT, 'public', group.id)).toBe(true)
        expect(await store.groups.getGroup(TENANT, 'public', group.id)).toBeUndefined()
        expect(await store.groups.deleteGroup(TENANT, 'public', group.id)).toBe(false)
      })

      it('deleteGroup - its files stay and belong to no group afterwards', async () => {
        const group = await store.groups.createGroup(newGroup())
        const kept = await store.groups.createGroup(newGroup({ name: 'kept' }))
        const grouped = await addFile({ groupId: group.id, createdAt: at(1) })
        const untouched = await addFile({ groupId: kept.id, createdAt: at(2) })
        expect(await store.groups.deleteGroup(TENANT, 'public', group.id)).toBe(true)
        expect(await store.files.getFile(TENANT, 'public', grouped.id)).toEqual({ ...grouped, groupId: null })
        expect(ids((await listAll({ groupId: null })).items)).toEqual([grouped.id])
        expect((await store.files.getFile(TENANT, 'public', untouched.id))?.groupId).toBe(kept.id)
        await expectCounts(2, 2)
      })
    })

    describe('aborted signals', () => {
      const aborted = () => AbortSignal.abort()

      it('every group method - an aborted signal rejects with ABORTED and changes nothing', async () => {
        const group = await store.groups.createGroup(newGroup())
        const file = await addFile({ groupId: group.id })
        const page: PageRequest = { limit: 10, order: 'ASC' }
        const calls: [string, (signal: AbortSignal) => Promise<unknown>][] = [
          ['createGroup', (signal) => store.groups.createGroup(newGroup(), { signal })],
          ['getGroup', (signal) => store.groups.getGroup(TENANT, 'public', group.id, { signal })],
          ['listGroups', (signal) => store.groups.listGroups(TENANT, 'public', {}, page, { signal })],
          ['updateGroup', (signal) => store.groups.updateGroup(TENANT, 'public', group.id, { name: 'x' }, { signal })],
          ['deleteGroup', (signal) => store.groups.deleteGroup(TENANT, 'public', group.id, { signal })],
        ]
        for (const [method, call] of calls) {
          await expect(call(aborted()), method).rejects.toMatchObject({ code: 'ABORTED' })
        }
        expect(await store.files.getFile(TENANT, 'public', file.id)).toEqual(file)
        expect(await store.groups.getGroup(TENANT, 'public', group.id)).toEqual(group)
        expect((await listAllGroups({})).items).toHaveLength(1)
      })
    })
  })
}
