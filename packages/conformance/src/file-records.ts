import { randomUUID } from 'node:crypto'
import type { CreatedFile, FileFilter, FileRecord, PageRequest, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { fileFixtures } from './file-fixtures.js'
import { describeFileListFilters } from './file-list-filters.js'
import { at, contentFor, fileBuilder, newCid, newGroup, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import { ids, sortByKey, walkPages } from './paging.js'
import type { RecordStoreHarness } from './record-store.js'

const newFile = fileBuilder()

/**
 * The files part of the RecordStore contract (`records.files`): files and the content records they
 * share. Every adapter runs it with a fresh, empty store per test; the optional probe proves what
 * persisted without going through the adapter.
 */
export function describeFileRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`RecordStore conformance: ${name}: files`, () => {
    let h: RecordStoreHarness
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      h = next
      store = next.store
    })

    const fixtures = fileFixtures(() => h)
    const { expectCounts, addFile, listAll } = fixtures
    describeFileListFilters(fixtures, () => store)

    describe('createFile', () => {
      it('createFile - stores a new content record and the file, exactly as given', async () => {
        const file = newFile({
          keyvalues: { project: 'apollo', year: '2026' },
          expiresAt: at(3600),
          numberOfFiles: 3,
          createdAt: at(5),
        })
        const content = contentFor(file)
        const created = await store.files.createFile(file, content)
        expect(created).toEqual({ file: { ...file, vectorized: false }, isDuplicate: false, content })
        expect(await store.files.getFile(TENANT, 'public', file.id)).toEqual({ ...file, vectorized: false })
        expect(await store.files.getContent(file.cid)).toEqual(content)
        await expectCounts(1, 1)
      })

      it('createFile - a second file of the same CID gets the existing content record back', async () => {
        const first = newFile()
        const firstContent = contentFor(first)
        await store.files.createFile(first, firstContent)
        const second = newFile({ cid: first.cid, tenantId: OTHER_TENANT, network: 'private' })
        const created = await store.files.createFile(second, contentFor(second))
        expect(created.content).toEqual(firstContent)
        expect(created.file).toEqual({ ...second, vectorized: false })
        expect(await store.files.getContent(first.cid)).toEqual(firstContent)
        await expectCounts(1, 2)
      })

      it('createFile - isDuplicate is true when the tenant already holds the CID on that network', async () => {
        const first = await addFile()
        const again = newFile({ cid: first.cid, name: 'copy.pdf' })
        const created = await store.files.createFile(again, contentFor(again))
        expect(created.isDuplicate).toBe(true)
        expect(created.file.id).toBe(again.id)
        await expectCounts(1, 2)
      })

      it('createFile - isDuplicate is false for another tenant or the other network', async () => {
        const first = await addFile()
        const otherTenant = newFile({ cid: first.cid, tenantId: OTHER_TENANT })
        expect((await store.files.createFile(otherTenant, contentFor(otherTenant))).isDuplicate).toBe(false)
        const otherNetwork = newFile({ cid: first.cid, network: 'private' })
        expect((await store.files.createFile(otherNetwork, contentFor(otherNetwork))).isDuplicate).toBe(false)
      })

      it('createFile - isDuplicate is false again once the tenant deleted its file of that CID', async () => {
        const first = await addFile()
        await store.files.deleteFile(TENANT, 'public', first.id)
        const again = newFile({ cid: first.cid })
        expect((await store.files.createFile(again, contentFor(again))).isDuplicate).toBe(false)
      })

      it('createFile - a groupId of the same tenant and network is stored', async () => {
        const group = await store.groups.createGroup(newGroup())
        const file = await addFile({ groupId: group.id })
        expect(file.groupId).toBe(group.id)
        expect((await store.files.getFile(TENANT, 'public', file.id))?.groupId).toBe(group.id)
      })

      it.each([
        ['of another tenant', { tenantId: OTHER_TENANT }],
        ['on the other network', { network: 'private' as const }],
      ])('createFile - a groupId %s is NOT_FOUND and nothing is written', async (_, groupFields) => {
        const group = await store.groups.createGroup(newGroup(groupFields))
        const file = newFile({ groupId: group.id })
        await expect(store.files.createFile(file, contentFor(file))).rejects.toMatchObject({ code: 'NOT_FOUND' })
        expect(await store.files.getFile(TENANT, 'public', file.id)).toBeUndefined()
        expect(await store.files.getContent(file.cid)).toBeUndefined()
        await expectCounts(0, 0)
      })

      it('createFile - a missing groupId is NOT_FOUND and nothing is written', async () => {
        const file = newFile({ groupId: randomUUID() })
        // one message whatever the adapter: no package name, no id (a client sees it)
        await expect(store.files.createFile(file, contentFor(file))).rejects.toMatchObject({
          code: 'NOT_FOUND',
          message: 'group not found',
        })
        expect(await store.files.getFile(TENANT, 'public', file.id)).toBeUndefined()
        expect(await store.files.getContent(file.cid)).toBeUndefined()
        await expectCounts(0, 0)
      })

      it('createFile - a missing groupId leaves an existing content record untouched', async () => {
        const existing = newFile()
        const existingContent = contentFor(existing)
        await store.files.createFile(existing, existingContent)
        const file = newFile({ cid: existing.cid, groupId: randomUUID() })
        await expect(store.files.createFile(file, contentFor(file))).rejects.toMatchObject({ code: 'NOT_FOUND' })
        expect(await store.files.getContent(existing.cid)).toEqual(existingContent)
        await expectCounts(1, 1)
      })

      it('createFile - reusing a file id is CONFLICT and nothing is written', async () => {
        const first = await addFile()
        const reused = newFile({ id: first.id, name: 'other.pdf' })
        await expect(store.files.createFile(reused, contentFor(reused))).rejects.toMatchObject({ code: 'CONFLICT' })
        expect(await store.files.getFile(TENANT, 'public', first.id)).toEqual(first)
        expect(await store.files.getContent(reused.cid)).toBeUndefined()
        await expectCounts(1, 1)
      })

      it('createFile - reusing a file id of another tenant is CONFLICT too', async () => {
        const first = await addFile({ tenantId: OTHER_TENANT })
        const reused = newFile({ id: first.id })
        await expect(store.files.createFile(reused, contentFor(reused))).rejects.toMatchObject({ code: 'CONFLICT' })
        expect(await store.files.getFile(OTHER_TENANT, 'public', first.id)).toEqual(first)
      })

      it('createFile - 20 concurrent calls with one new CID: one content record for all, exactly one not a duplicate', async () => {
        // Three CIDs at once, to give a store without the right locking more chances to interleave.
        const rounds = await Promise.all(
          Array.from({ length: 3 }, async () => {
            const cid = newCid()
            const files = Array.from({ length: 20 }, (_, i) => newFile({ cid, createdAt: at(i) }))
            const contents = files.map(contentFor)
            const results = await Promise.all(files.map((file, i) => store.files.createFile(file, contents[i]!)))
            return { cid, contents, results }
          }),
        )
        for (const { cid, contents, results } of rounds) {
          const stored = await store.files.getContent(cid)
          expect(contents).toContainEqual(stored)
          for (const result of results) expect(result.content).toEqual(stored)
          // "At most one" in the port; exactly one here, since the tenant held no such file before.
          expect(results.filter((result) => !result.isDuplicate)).toHaveLength(1)
        }
        await expectCounts(3, 60)
      })

      it('createFile - concurrent calls by two tenants share one content record, one non-duplicate each', async () => {
        const cid = newCid()
        const files = Array.from({ length: 10 }, (_, i) =>
          newFile({ cid, tenantId: i % 2 === 0 ? TENANT : OTHER_TENANT }),
        )
        const results = await Promise.all(files.map((file) => store.files.createFile(file, contentFor(file))))
        const firstOfTenant = (tenantId: string) =>
          results.filter((result) => result.file.tenantId === tenantId && !result.isDuplicate)
        expect(firstOfTenant(TENANT)).toHaveLength(1)
        expect(firstOfTenant(OTHER_TENANT)).toHaveLength(1)
        expect(new Set(results.map((result) => result.content.blobKey)).size).toBe(1)
        await expectCounts(1, 10)
      })

      it('createFile - racing deleteFile of the same CID never leaves a file without its content', async () => {
        const rounds = await Promise.all(
          Array.from({ length: 10 }, async () => {
            const old = await addFile()
            const next = newFile({ cid: old.cid, name: 'next.pdf' })
            const [deleted, created] = await Promise.all([
              store.files.deleteFile(TENANT, 'public', old.id),
              store.files.createFile(next, contentFor(next)),
            ])
            return { cid: old.cid, deleted, created }
          }),
        )
        for (const { cid, deleted, created } of rounds) {
          expect(deleted?.file.cid).toBe(cid)
          // Whichever way the race went, the surviving file is backed by the record the store holds,
          // and a released blob is never the one that backs it.
          expect(await store.files.getContent(cid)).toEqual(created.content)
          if (deleted?.releasedContent) expect(deleted.releasedContent.blobKey).not.toBe(created.content.blobKey)
        }
        await expectCounts(10, 10)
      })
      it('createFile - requireContent shares an existing content record; with none it is NOT_FOUND and writes nothing', async () => {
        const held = await addFile()
        const reuse = newFile({ cid: held.cid, tenantId: OTHER_TENANT, name: 'pinned' })
        // the caller's own blob key is never stored: the existing record is what backs the file
        const created = await store.files.createFile(
          reuse,
          { ...contentFor(reuse), blobKey: 'never-written' },
          {
            requireContent: true,
          },
        )
        expect(created.content).toEqual(await store.files.getContent(held.cid))
        expect(created.content.blobKey).not.toBe('never-written')
        const orphan = newFile({ name: 'nothing to share' })
        await expect(
          store.files.createFile(orphan, contentFor(orphan), { requireContent: true }),
        ).rejects.toMatchObject({
          code: 'NOT_FOUND',
        })
        expect(await store.files.getFile(TENANT, 'public', orphan.id)).toBeUndefined()
        expect(await store.files.getContent(orphan.cid)).toBeUndefined()
        await expectCounts(1, 2)
      })

      it('createFile - requireContent racing deleteFile of the last file: the file keeps the content alive, or NOT_FOUND', async () => {
        const rounds = await Promise.all(
          Array.from({ length: 10 }, async () => {
            const old = await addFile()
            const next = newFile({ cid: old.cid, name: 'pinned' })
            const [deleted, created] = await Promise.all([
              store.files.deleteFile(TENANT, 'public', old.id),
              store.files.createFile(next, contentFor(next), { requireContent: true }).catch((error: unknown) => error),
            ])
            return { cid: old.cid, next, deleted, created }
          }),
        )
        let files = 0
        for (const { cid, next, deleted, created } of rounds) {
          expect(deleted?.file.cid).toBe(cid)
          if ((created as { code?: string }).code === 'NOT_FOUND') {
            // the deletion came first: its content was released, and no file was made on it
            expect(deleted?.releasedContent?.cid).toBe(cid)
            expect(await store.files.getFile(TENANT, 'public', next.id)).toBeUndefined()
            expect(await store.files.getContent(cid)).toBeUndefined()
          } else {
            // the file came first: the deletion released nothing, the content is still held
            expect(deleted?.releasedContent).toBeUndefined()
            expect(await store.files.getContent(cid)).toEqual((created as CreatedFile).content)
            files++
          }
        }
        await expectCounts(files, files)
      })
    })

    describe('getFile', () => {
      it('getFile - another tenant or the other network sees undefined', async () => {
        const file = await addFile()
        expect(await store.files.getFile(OTHER_TENANT, 'public', file.id)).toBeUndefined()
        expect(await store.files.getFile(TENANT, 'private', file.id)).toBeUndefined()
      })

      it('getFile - an unknown id is undefined, whatever its shape', async () => {
        expect(await store.files.getFile(TENANT, 'public', randomUUID())).toBeUndefined()
        expect(await store.files.getFile(TENANT, 'public', 'not-a-uuid')).toBeUndefined()
      })
    })

    describe('listFiles', () => {
      it('listFiles - returns only the tenant’s files on that network', async () => {
        const mine = [await addFile({ createdAt: at(1) }), await addFile({ createdAt: at(2) })]
        await addFile({ tenantId: OTHER_TENANT })
        await addFile({ network: 'private' })
        expect(ids((await listAll({})).items)).toEqual(ids(mine))
        expect((await listAll({}, 'ASC', OTHER_TENANT)).items).toHaveLength(1)
        expect((await listAll({}, 'ASC', TENANT, 'private')).items).toHaveLength(1)
        expect((await listAll({}, 'ASC', 'tenant-nobody')).items).toEqual([])
      })

      it.each(['ASC', 'DESC'] as const)('listFiles - orders %s by createdAt then id, ties included', async (order) => {
        const files: FileRecord[] = []
        for (const second of [3, 1, 2, 2, 2, 0, 1]) files.push(await addFile({ createdAt: at(second) }))
        const page = await listAll({}, order)
        expect(ids(page.items)).toEqual(ids(sortByKey(files, order)))
        expect(page.hasMore).toBe(false)
      })

      it.each([
        ['ASC', 1],
        ['ASC', 3],
        ['DESC', 2],
        ['DESC', 4],
      ] as const)('listFiles - keyset paging %s by %i visits every file exactly once', async (order, limit) => {
        const files: FileRecord[] = []
        for (const second of [5, 1, 1, 1, 3, 3, 0, 7]) files.push(await addFile({ createdAt: at(second) }))
        const seen = await walkPages((page) => store.files.listFiles(TENANT, 'public', {}, page), limit, order)
        expect(ids(seen)).toEqual(ids(sortByKey(files, order)))
      })

      it('listFiles - hasMore is false on a last page that is exactly full', async () => {
        const files = [await addFile({ createdAt: at(1) }), await addFile({ createdAt: at(2) })]
        const page = await store.files.listFiles(TENANT, 'public', {}, { limit: 2, order: 'ASC' })
        expect(ids(page.items)).toEqual(ids(files))
        expect(page.hasMore).toBe(false)
        const first = await store.files.listFiles(TENANT, 'public', {}, { limit: 1, order: 'ASC' })
        expect(first.hasMore).toBe(true)
        const after = { createdAt: files[1]!.createdAt, id: files[1]!.id }
        expect(await store.files.listFiles(TENANT, 'public', {}, { limit: 1, order: 'ASC', after })).toEqual({
          items: [],
          hasMore: false,
        })
      })

      it('listFiles - namePrefix matches the start of the name, literally and case-sensitively', async () => {
        const a = await addFile({ name: 'report_2026.pdf', createdAt: at(1) })
        const b = await addFile({ name: 'report_2027.pdf', createdAt: at(2) })
        await addFile({ name: 'reportX2026.pdf' })
        await addFile({ name: 'Report_2026.pdf' })
        await addFile({ name: 'old report_2026.pdf' })
        const pct = await addFile({ name: '100% done' })
        await addFile({ name: '1000 done' })
        expect(ids((await listAll({ namePrefix: 'report_' })).items)).toEqual(ids([a, b]))
        expect(ids((await listAll({ namePrefix: 'report_2026' })).items)).toEqual(ids([a]))
        expect(ids((await listAll({ namePrefix: '100%' })).items)).toEqual(ids([pct]))
      })

      it('listFiles - groupId selects the group’s files, and null the files in no group', async () => {
        const group = await store.groups.createGroup(newGroup())
        const other = await store.groups.createGroup(newGroup({ name: 'other' }))
        const inGroup = await addFile({ groupId: group.id, createdAt: at(1) })
        const inOther = await addFile({ groupId: other.id, createdAt: at(2) })
        const loose = await addFile({ createdAt: at(3) })
        expect(ids((await listAll({ groupId: group.id })).items)).toEqual(ids([inGroup]))
        expect(ids((await listAll({ groupId: null })).items)).toEqual(ids([loose]))
        expect(ids((await listAll({ groupId: undefined })).items)).toEqual(ids([inGroup, inOther, loose]))
        expect((await listAll({ groupId: randomUUID() })).items).toEqual([])
        expect((await listAll({ groupId: 'not-a-uuid' })).items).toEqual([])
      })

      it('listFiles - cid selects the files of one CID', async () => {
        const a = await addFile({ createdAt: at(1) })
        const b = await addFile({ cid: a.cid, createdAt: at(2) })
        await addFile()
        expect(ids((await listAll({ cid: a.cid })).items)).toEqual(ids([a, b]))
      })

      it('listFiles - mimeType selects an exact MIME type', async () => {
        const png = await addFile({ mimeType: 'image/png' })
        await addFile({ mimeType: 'image/pngx' })
        await addFile({ mimeType: 'text/plain' })
        expect(ids((await listAll({ mimeType: 'image/png' })).items)).toEqual(ids([png]))
      })

      it('listFiles - keyvalues match only files holding every pair', async () => {
        const both = await addFile({ keyvalues: { env: 'prod', team: 'core', extra: 'x' }, createdAt: at(1) })
        const alsoBoth = await addFile({ keyvalues: { env: 'prod', team: 'core' }, createdAt: at(2) })
        await addFile({ keyvalues: { env: 'prod' } })
        await addFile({ keyvalues: { env: 'prod', team: 'web' } })
        await addFile({ keyvalues: { env: 'prodx', team: 'core' } })
        expect(ids((await listAll({ keyvalues: { env: 'prod', team: 'core' } })).items)).toEqual(ids([both, alsoBoth]))
        expect((await listAll({ keyvalues: {} })).items).toHaveLength(5)
      })

      it('listFiles - filters combine with AND, and page together', async () => {
        const group = await store.groups.createGroup(newGroup())
        const match = { name: 'scan-1.png', mimeType: 'image/png', groupId: group.id, keyvalues: { k: 'v' } }
        const matching: FileRecord[] = []
        for (const second of [1, 2, 2, 3]) matching.push(await addFile({ ...match, createdAt: at(second) }))
        await addFile({ ...match, name: 'other.png' })
        await addFile({ ...match, mimeType: 'image/jpeg' })
        await addFile({ ...match, groupId: null })
        await addFile({ ...match, keyvalues: { k: 'w' } })
        const cidMatch = await addFile({ ...match, createdAt: at(9) })
        const filter: FileFilter = {
          namePrefix: 'scan-',
          mimeType: 'image/png',
          groupId: group.id,
          keyvalues: { k: 'v' },
        }
        const seen = await walkPages((page) => store.files.listFiles(TENANT, 'public', filter, page), 2, 'DESC')
        expect(ids(seen)).toEqual(ids(sortByKey([...matching, cidMatch], 'DESC')))
        expect(ids((await listAll({ ...filter, cid: cidMatch.cid })).items)).toEqual([cidMatch.id])
      })

      it('listFiles - an empty store returns an empty page', async () => {
        expect(await store.files.listFiles(TENANT, 'public', {}, { limit: 10, order: 'DESC' })).toEqual({
          items: [],
          hasMore: false,
        })
      })
    })

    describe('updateFile', () => {
      it('updateFile - renames and leaves every other field as it was', async () => {
        const file = await addFile({ keyvalues: { a: '1' }, expiresAt: at(99) })
        const updated = await store.files.updateFile(TENANT, 'public', file.id, { name: 'renamed.pdf' })
        expect(updated).toEqual({ ...file, name: 'renamed.pdf' })
        expect(await store.files.getFile(TENANT, 'public', file.id)).toEqual(updated)
      })

      it('updateFile - merges keyvalues, and a null value deletes that key', async () => {
        const file = await addFile({ keyvalues: { keep: '1', change: '2', drop: '3' } })
        const updated = await store.files.updateFile(TENANT, 'public', file.id, {
          keyvalues: { change: 'two', drop: null, add: 'new', absent: null },
        })
        expect(updated?.keyvalues).toEqual({ keep: '1', change: 'two', add: 'new' })
        expect((await store.files.getFile(TENANT, 'public', file.id))?.keyvalues).toEqual(updated?.keyvalues)
        expect(ids((await listAll({ keyvalues: { add: 'new' } })).items)).toEqual([file.id])
        expect((await listAll({ keyvalues: { drop: '3' } })).items).toEqual([])
      })

      it('updateFile - sets and clears expiresAt', async () => {
        const file = await addFile()
        expect((await store.files.updateFile(TENANT, 'public', file.id, { expiresAt: at(500) }))?.expiresAt).toEqual(
          at(500),
        )
        expect((await store.files.getFile(TENANT, 'public', file.id))?.expiresAt).toEqual(at(500))
        expect((await store.files.updateFile(TENANT, 'public', file.id, { expiresAt: null }))?.expiresAt).toBeNull()
        expect((await store.files.getFile(TENANT, 'public', file.id))?.expiresAt).toBeNull()
      })

      it('updateFile - sets and clears groupId', async () => {
        const group = await store.groups.createGroup(newGroup())
        const file = await addFile()
        expect((await store.files.updateFile(TENANT, 'public', file.id, { groupId: group.id }))?.groupId).toBe(group.id)
        expect(ids((await listAll({ groupId: group.id })).items)).toEqual([file.id])
        expect((await store.files.updateFile(TENANT, 'public', file.id, { groupId: null }))?.groupId).toBeNull()
        expect((await store.files.getFile(TENANT, 'public', file.id))?.groupId).toBeNull()
      })

      it.each([
        ['of another tenant', { tenantId: OTHER_TENANT }],
        ['on the other network', { network: 'private' as const }],
        ['that is missing', undefined],
      ])('updateFile - a groupId %s is NOT_FOUND and nothing changes', async (_, groupFields) => {
        const groupId = groupFields ? (await store.groups.createGroup(newGroup(groupFields))).id : randomUUID()
        const file = await addFile()
        await expect(
          store.files.updateFile(TENANT, 'public', file.id, { groupId, name: 'changed.pdf', keyvalues: { k: 'v' } }),
        ).rejects.toMatchObject({ code: 'NOT_FOUND' })
        expect(await store.files.getFile(TENANT, 'public', file.id)).toEqual(file)
      })

      it('updateFile - another tenant or the other network gets undefined and nothing changes', async () => {
        const file = await addFile()
        expect(await store.files.updateFile(OTHER_TENANT, 'public', file.id, { name: 'x' })).toBeUndefined()
        expect(await store.files.updateFile(TENANT, 'private', file.id, { name: 'x' })).toBeUndefined()
        expect(await store.files.updateFile(TENANT, 'public', randomUUID(), { name: 'x' })).toBeUndefined()
        expect(await store.files.updateFile(TENANT, 'public', 'not-a-uuid', { name: 'x' })).toBeUndefined()
        expect(await store.files.getFile(TENANT, 'public', file.id)).toEqual(file)
      })

      it('updateFile - an empty patch returns the record unchanged', async () => {
        const file = await addFile({ keyvalues: { a: '1' } })
        expect(await store.files.updateFile(TENANT, 'public', file.id, {})).toEqual(file)
        expect(await store.files.updateFile(OTHER_TENANT, 'public', file.id, {})).toBeUndefined()
      })
    })

    describe('deleteFile', () => {
      it('deleteFile - the last reference returns the file and releases its content', async () => {
        const file = newFile()
        const content = contentFor(file)
        const created = await store.files.createFile(file, content)
        expect(await store.files.deleteFile(TENANT, 'public', file.id)).toEqual({
          file: created.file,
          releasedContent: content,
        })
        expect(await store.files.getFile(TENANT, 'public', file.id)).toBeUndefined()
        expect(await store.files.getContent(file.cid)).toBeUndefined()
        await expectCounts(0, 0)
      })

      it('deleteFile - keeps the content while another file of any tenant references it', async () => {
        const first = await addFile()
        const second = await addFile({ cid: first.cid, tenantId: OTHER_TENANT, network: 'private' })
        const deleted = await store.files.deleteFile(TENANT, 'public', first.id)
        expect(deleted?.file).toEqual(first)
        expect(deleted?.releasedContent).toBeUndefined()
        expect(await store.files.getContent(first.cid)).toBeDefined()
        await expectCounts(1, 1)
        expect((await store.files.deleteFile(OTHER_TENANT, 'private', second.id))?.releasedContent?.cid).toBe(first.cid)
        await expectCounts(0, 0)
      })

      it('deleteFile - another tenant or the other network gets undefined and nothing is deleted', async () => {
        const file = await addFile()
        expect(await store.files.deleteFile(OTHER_TENANT, 'public', file.id)).toBeUndefined()
        expect(await store.files.deleteFile(TENANT, 'private', file.id)).toBeUndefined()
        expect(await store.files.deleteFile(TENANT, 'public', 'not-a-uuid')).toBeUndefined()
        expect(await store.files.getFile(TENANT, 'public', file.id)).toEqual(file)
        await expectCounts(1, 1)
      })

      it('deleteFile - a second delete of the same file is undefined', async () => {
        const file = await addFile()
        expect(await store.files.deleteFile(TENANT, 'public', file.id)).toBeDefined()
        expect(await store.files.deleteFile(TENANT, 'public', file.id)).toBeUndefined()
      })

      it('deleteFile - of concurrent deletes of the last two references exactly one releases the content', async () => {
        const pairs = await Promise.all(
          Array.from({ length: 10 }, async () => {
            const first = await addFile()
            const second = await addFile({ cid: first.cid, tenantId: OTHER_TENANT })
            return [first, second] as const
          }),
        )
        const outcomes = await Promise.all(
          pairs.map(([first, second]) =>
            Promise.all([
              store.files.deleteFile(TENANT, 'public', first.id),
              store.files.deleteFile(OTHER_TENANT, 'public', second.id),
            ]),
          ),
        )
        for (const [i, deletions] of outcomes.entries()) {
          expect(deletions.filter((deleted) => deleted?.releasedContent)).toHaveLength(1)
          expect(await store.files.getContent(pairs[i]![0].cid)).toBeUndefined()
        }
        await expectCounts(0, 0)
      })

      it('deleteFile - concurrent deletes of one file: exactly one gets it', async () => {
        const file = await addFile()
        const results = await Promise.all(
          Array.from({ length: 5 }, () => store.files.deleteFile(TENANT, 'public', file.id)),
        )
        expect(results.filter((result) => result !== undefined)).toHaveLength(1)
        expect(results.filter((result) => result?.releasedContent)).toHaveLength(1)
      })
    })

    describe('getContent', () => {
      it('getContent - undefined for a CID no file references', async () => {
        expect(await store.files.getContent(newCid())).toBeUndefined()
      })
    })

    describe('isBlobReferenced', () => {
      it('isBlobReferenced - true while a content record owns the key, false before and after', async () => {
        const blobKey = `blobs/${randomUUID()}`
        const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
        expect(await store.files.isBlobReferenced(blobKey)).toBe(false)
        const { file } = await store.files.createFile(
          {
            id: randomUUID(),
            tenantId: 't1',
            userId: 'u1',
            network: 'public',
            name: 'empty',
            cid,
            size: 0,
            numberOfFiles: 1,
            mimeType: 'application/octet-stream',
            groupId: null,
            keyvalues: {},
            createdAt: new Date(Date.UTC(2026, 0, 1)),
            expiresAt: null,
          },
          { cid, blobKey, size: 0, kind: 'file', profile: 'v1' },
        )
        expect(await store.files.isBlobReferenced(blobKey)).toBe(true)
        expect(await store.files.isBlobReferenced(`${blobKey}-other`)).toBe(false)
        await store.files.deleteFile('t1', 'public', file.id)
        expect(await store.files.isBlobReferenced(blobKey)).toBe(false)
      })
    })

    describe('aborted signals', () => {
      const aborted = () => AbortSignal.abort()

      it('createFile - an aborted signal rejects with ABORTED and nothing is written', async () => {
        const file = newFile()
        await expect(store.files.createFile(file, contentFor(file), { signal: aborted() })).rejects.toMatchObject({
          code: 'ABORTED',
        })
        expect(await store.files.getFile(TENANT, 'public', file.id)).toBeUndefined()
        await expectCounts(0, 0)
      })

      it('every other file method - an aborted signal rejects with ABORTED and changes nothing', async () => {
        const group = await store.groups.createGroup(newGroup())
        const file = await addFile({ groupId: group.id })
        const page: PageRequest = { limit: 10, order: 'ASC' }
        const calls: [string, (signal: AbortSignal) => Promise<unknown>][] = [
          ['getFile', (signal) => store.files.getFile(TENANT, 'public', file.id, { signal })],
          ['listFiles', (signal) => store.files.listFiles(TENANT, 'public', {}, page, { signal })],
          ['updateFile', (signal) => store.files.updateFile(TENANT, 'public', file.id, { name: 'x' }, { signal })],
          ['deleteFile', (signal) => store.files.deleteFile(TENANT, 'public', file.id, { signal })],
          ['getContent', (signal) => store.files.getContent(file.cid, { signal })],
        ]
        for (const [method, call] of calls) {
          await expect(call(aborted()), method).rejects.toMatchObject({ code: 'ABORTED' })
        }
        expect(await store.files.getFile(TENANT, 'public', file.id)).toEqual(file)
        expect(await store.groups.getGroup(TENANT, 'public', group.id)).toEqual(group)
      })
    })
  })
}
