import { createHash, randomUUID } from 'node:crypto'
import type { BlockLocation, ContentRecord, FileRecord, NewFile, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { at, fileBuilder, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

/** A sha2-256 multihash (0x12, 32 bytes) of a label: distinct per label, like a real block's. */
function multihash(label: string): Uint8Array {
  return Uint8Array.from([0x12, 0x20, ...createHash('sha256').update(label).digest()])
}

function location(label: string, fields: Partial<BlockLocation> = {}): BlockLocation {
  return { multihash: multihash(label), codec: 0x55, source: 'blob', offset: 0, length: 10, isRoot: false, ...fields }
}

/** `BlockRecordStore`: the block index behind the gateway's block-by-block reads. */
export function describeBlockRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`RecordStore conformance: ${name}: block index`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })
    const newFile = fileBuilder()
    const blobKey = () => `blobs/${randomUUID()}`
    const later = at(3600)

    /** Records `file` with a content owning `key`, after its blocks were recorded under `key`. */
    async function hold(key: string, fields: Partial<NewFile> = {}, cid?: string) {
      const file = newFile(cid === undefined ? fields : { ...fields, cid })
      const content: ContentRecord = { cid: file.cid, blobKey: key, size: 10, kind: 'car', profile: null }
      return store.files.createFile(file, content)
    }

    it('putBlockLocations - entries count only once a content record owns the blob', async () => {
      const key = blobKey()
      await store.blocks.putBlockLocations(key, [location('a', { isRoot: true }), location('b', { offset: 10 })])
      expect(await store.blocks.getBlockLocation(key, multihash('b'))).toEqual(location('b', { offset: 10 }))
      expect(await store.blocks.findPublicBlock(multihash('a'), { at: later })).toBeUndefined()
      const { content } = await hold(key)
      const found = await store.blocks.findPublicBlock(multihash('b'), { at: later })
      expect(found).toEqual({ content, location: location('b', { offset: 10 }), until: null })
    })

    it('putBlockLocations - recording a block twice for one blob keeps one entry; many entries land together', async () => {
      const key = blobKey()
      const many = Array.from({ length: 4500 }, (_, i) => location(`many-${i}`, { offset: i * 10 }))
      await store.blocks.putBlockLocations(key, many)
      await store.blocks.putBlockLocations(key, [location('many-7', { offset: 999 })])
      expect(await store.blocks.getBlockLocation(key, multihash('many-7'))).toEqual(location('many-7', { offset: 70 }))
      expect(await store.blocks.getBlockLocation(key, multihash('many-4499'))).toEqual(many[4499])
    })

    it('findPublicBlock - never answers for private-only, expired or other-tenant content, or an unknown block', async () => {
      const privateKey = blobKey()
      await store.blocks.putBlockLocations(privateKey, [location('private')])
      await hold(privateKey, { network: 'private' })
      expect(await store.blocks.findPublicBlock(multihash('private'), { at: later })).toBeUndefined()

      const expiringKey = blobKey()
      await store.blocks.putBlockLocations(expiringKey, [location('expiring')])
      await hold(expiringKey, { expiresAt: at(60) })
      expect(await store.blocks.findPublicBlock(multihash('expiring'), { at: at(59) })).toBeDefined()
      expect(await store.blocks.findPublicBlock(multihash('expiring'), { at: at(60) })).toBeUndefined()

      const theirsKey = blobKey()
      await store.blocks.putBlockLocations(theirsKey, [location('theirs')])
      await hold(theirsKey, { tenantId: OTHER_TENANT })
      expect(await store.blocks.findPublicBlock(multihash('theirs'), { at: later })).toBeDefined()
      expect(await store.blocks.findPublicBlock(multihash('theirs'), { at: later, tenantId: TENANT })).toBeUndefined()
      expect(
        (await store.blocks.findPublicBlock(multihash('theirs'), { at: later, tenantId: OTHER_TENANT }))?.location,
      ).toEqual(location('theirs'))
      expect(await store.blocks.findPublicBlock(multihash('nobody'), { at: later })).toBeUndefined()
    })

    it('findPublicBlock - content only excluded tenants hold is not found; held by another too, it is', async () => {
      const key = blobKey()
      await store.blocks.putBlockLocations(key, [location('hidden', { isRoot: true })])
      const { file } = await hold(key, { tenantId: OTHER_TENANT })
      const hidden = { at: later, excludeTenants: [OTHER_TENANT] }
      expect(await store.blocks.findPublicBlock(multihash('hidden'), hidden)).toBeUndefined()
      expect(
        await store.blocks.findPublicBlock(multihash('hidden'), { ...hidden, tenantId: OTHER_TENANT }),
      ).toBeUndefined()
      expect(await store.blocks.findPublicBlock(multihash('hidden'), { at: later, excludeTenants: [] })).toBeDefined()
      // the same content, held publicly by a tenant not excluded, is served
      await store.files.createFile(newFile({ cid: file.cid }), {
        cid: file.cid,
        blobKey: key,
        size: 10,
        kind: 'car',
        profile: null,
      })
      expect((await store.blocks.findPublicBlock(multihash('hidden'), hidden))?.location).toEqual(
        location('hidden', { isRoot: true }),
      )
    })

    it('findPublicBlock - a block held by several contents answers with one that holds it as its root first', async () => {
      const innerKey = blobKey()
      const rootKey = blobKey()
      await store.blocks.putBlockLocations(innerKey, [location('shared', { offset: 50 })])
      await hold(innerKey)
      await store.blocks.putBlockLocations(rootKey, [location('shared', { isRoot: true })])
      const { content } = await hold(rootKey)
      expect(await store.blocks.findPublicBlock(multihash('shared'), { at: later })).toEqual({
        content,
        location: location('shared', { isRoot: true }),
        until: null,
      })
    })

    it('findPublicBlock - says until when the answer holds: the latest expiry of the files serving it, null for none', async () => {
      const key = blobKey()
      await store.blocks.putBlockLocations(key, [location('lapsing', { isRoot: true })])
      const { file } = await hold(key, { expiresAt: at(60) })
      await hold(key, { expiresAt: at(120), tenantId: OTHER_TENANT }, file.cid)
      expect((await store.blocks.findPublicBlock(multihash('lapsing'), { at: at(1) }))?.until).toEqual(at(120))
      const mine = await store.blocks.findPublicBlock(multihash('lapsing'), { at: at(1), tenantId: TENANT })
      expect(mine?.until).toEqual(at(60))
      // past the first expiry only the other tenant's file serves it
      expect((await store.blocks.findPublicBlock(multihash('lapsing'), { at: at(90) }))?.until).toEqual(at(120))
      await hold(key, {}, file.cid)
      expect((await store.blocks.findPublicBlock(multihash('lapsing'), { at: at(1) }))?.until).toBeNull()
    })

    it('deleteFile - releasing the last reference removes the blob entries with the content', async () => {
      const key = blobKey()
      await store.blocks.putBlockLocations(key, [location('gone')])
      const { file } = await hold(key)
      const again = await hold(key, {}, file.cid)
      await store.files.deleteFile(TENANT, 'public', file.id)
      expect(await store.blocks.getBlockLocation(key, multihash('gone'))).toBeDefined()
      const deleted = await store.files.deleteFile(TENANT, 'public', again.file.id)
      expect(deleted?.releasedContent?.blobKey).toBe(key)
      expect(await store.blocks.getBlockLocation(key, multihash('gone'))).toBeUndefined()
    })

    it('findHeldFile - the oldest file of the tenant and network whose content has the block as its root', async () => {
      const key = blobKey()
      await store.blocks.putBlockLocations(key, [location('held-root', { isRoot: true }), location('held-inner')])
      const first = await hold(key, { createdAt: at(1) })
      await hold(key, { createdAt: at(2) }, first.file.cid)
      expect(await store.blocks.findHeldFile(TENANT, 'public', multihash('held-root'), later)).toEqual(first.file)
      expect(await store.blocks.findHeldFile(TENANT, 'public', multihash('held-inner'), later)).toBeUndefined()
      expect(await store.blocks.findHeldFile(TENANT, 'private', multihash('held-root'), later)).toBeUndefined()
      expect(await store.blocks.findHeldFile(OTHER_TENANT, 'public', multihash('held-root'), later)).toBeUndefined()
      await store.files.deleteFile(TENANT, 'public', first.file.id)
      expect((await store.blocks.findHeldFile(TENANT, 'public', multihash('held-root'), later))?.createdAt).toEqual(
        at(2),
      )
    })

    it('findHeldFile - a file past its expiresAt is not held, even before the expiry sweep deletes it', async () => {
      const key = blobKey()
      await store.blocks.putBlockLocations(key, [location('expiring-root', { isRoot: true })])
      const { file } = await hold(key, { expiresAt: at(60) })
      expect(await store.blocks.findHeldFile(TENANT, 'public', multihash('expiring-root'), at(59))).toEqual(file)
      expect(await store.blocks.findHeldFile(TENANT, 'public', multihash('expiring-root'), at(60))).toBeUndefined()
    })

    it('listRootHolders - every tenant’s files, either network, whose content has the block as its root', async () => {
      const key = blobKey()
      await store.blocks.putBlockLocations(key, [location('holders-root', { isRoot: true }), location('holders-inner')])
      const mine = await hold(key, { createdAt: at(2) })
      const minePrivate = await hold(key, { createdAt: at(1), network: 'private' }, mine.file.cid)
      const theirs = await hold(key, { tenantId: OTHER_TENANT, createdAt: at(0) }, mine.file.cid)
      await hold(blobKey(), {})
      const ids = (files: { id: string }[]) => files.map((f) => f.id)
      const byTenant = [TENANT, OTHER_TENANT].sort()
      const expected = byTenant.flatMap((t) => (t === TENANT ? [minePrivate.file.id, mine.file.id] : [theirs.file.id]))
      expect(ids(await store.blocks.listRootHolders(multihash('holders-root'), 10))).toEqual(expected)
      expect(ids(await store.blocks.listRootHolders(multihash('holders-root'), 1))).toEqual(expected.slice(0, 1))
      // a page at a time, each after the last file of the one before
      const paged: string[] = []
      let after: FileRecord | undefined
      for (;;) {
        const page = await store.blocks.listRootHolders(multihash('holders-root'), 2, { after })
        paged.push(...ids(page))
        if (page.length < 2) break
        after = page.at(-1)
      }
      expect(paged).toEqual(expected)
      const [, second] = await store.blocks.listRootHolders(multihash('holders-root'), 10)
      expect(ids(await store.blocks.listRootHolders(multihash('holders-root'), 10, { after: second }))).toEqual(
        expected.slice(2),
      )
      expect(await store.blocks.listRootHolders(multihash('holders-inner'), 10)).toEqual([])
      expect(await store.blocks.listRootHolders(multihash('nobody'), 10)).toEqual([])
      expect(
        (await store.blocks.listRootHolders(multihash('holders-root'), 10)).find((f) => f.id === mine.file.id),
      ).toEqual(mine.file)
    })

    it('listHeldRoots - every content some file references, either network, once each, in cid order after the cursor', async () => {
      const shared = await hold(blobKey(), { network: 'public' })
      await hold(blobKey(), { tenantId: OTHER_TENANT }, shared.content.cid)
      const privately = await hold(blobKey(), { network: 'private' })
      const expired = await hold(blobKey(), { expiresAt: at(-60) })
      const gone = await hold(blobKey())
      await store.files.deleteFile(TENANT, 'public', gone.file.id)
      const held = [shared.content.cid, privately.content.cid, expired.content.cid].sort()
      expect(await store.blocks.listHeldRoots(undefined, 10)).toEqual(held)
      expect(await store.blocks.listHeldRoots(undefined, 2)).toEqual(held.slice(0, 2))
      expect(await store.blocks.listHeldRoots(held[0], 10)).toEqual(held.slice(1))
      expect(await store.blocks.listHeldRoots(held[2], 10)).toEqual([])
    })

    it('deleteBlockLocations - removes every entry of a blob and is idempotent', async () => {
      const key = blobKey()
      await store.blocks.putBlockLocations(key, [location('x'), location('y')])
      await store.blocks.deleteBlockLocations(key)
      await store.blocks.deleteBlockLocations(key)
      expect(await store.blocks.getBlockLocation(key, multihash('x'))).toBeUndefined()
      expect(await store.blocks.getBlockLocation(key, multihash('y'))).toBeUndefined()
    })

    it('listPublicRoots - public, unexpired contents once each, in cid order after the cursor', async () => {
      const shared = await hold(blobKey(), { network: 'public' })
      // a second public file of the same content, of another tenant: the root is listed once
      await hold(blobKey(), { tenantId: OTHER_TENANT }, shared.content.cid)
      const expiring = await hold(blobKey(), { expiresAt: at(60) })
      await hold(blobKey(), { network: 'private' })
      const publicRoots = [shared.content.cid, expiring.content.cid].sort()
      expect(await store.blocks.listPublicRoots(undefined, 10, at(59))).toEqual(publicRoots)
      expect(await store.blocks.listPublicRoots(undefined, 10, at(60))).toEqual([shared.content.cid])
      expect(await store.blocks.listPublicRoots(publicRoots[0], 10, at(59))).toEqual([publicRoots[1]])
      expect(await store.blocks.listPublicRoots(undefined, 1, at(59))).toEqual([publicRoots[0]])
    })

    it('listPublicRoots - roots only excluded tenants hold publicly are not listed; held by another too, they are', async () => {
      const shared = await hold(blobKey(), { tenantId: OTHER_TENANT })
      await hold(blobKey(), { tenantId: TENANT }, shared.content.cid)
      const onlyHidden = await hold(blobKey(), { tenantId: OTHER_TENANT })
      // held privately by a visible tenant: still not announced
      await hold(blobKey(), { tenantId: TENANT, network: 'private' }, onlyHidden.content.cid)
      const excludeTenants = [OTHER_TENANT]
      expect(await store.blocks.listPublicRoots(undefined, 10, later, { excludeTenants })).toEqual([shared.content.cid])
      expect(await store.blocks.listPublicRoots(undefined, 10, later, { excludeTenants: [] })).toEqual(
        [shared.content.cid, onlyHidden.content.cid].sort(),
      )
    })

    it('listPublicRoots - a root held both privately and publicly is public; deleting the public file unlists it', async () => {
      const both = await hold(blobKey(), { network: 'private' })
      const { file } = await hold(blobKey(), { network: 'public' }, both.content.cid)
      expect(await store.blocks.listPublicRoots(undefined, 10, later)).toEqual([both.content.cid])
      await store.files.deleteFile(file.tenantId, 'public', file.id)
      expect(await store.blocks.listPublicRoots(undefined, 10, later)).toEqual([])
    })

    it('listUnindexedContents - lists contents without entries in cid order after the cursor', async () => {
      const indexedKey = blobKey()
      await store.blocks.putBlockLocations(indexedKey, [location('indexed')])
      await hold(indexedKey)
      const bare = await Promise.all([hold(blobKey()), hold(blobKey()), hold(blobKey())])
      const cids = bare.map((created) => created.content.cid).sort()
      expect((await store.blocks.listUnindexedContents(undefined, 10)).map((c) => c.cid)).toEqual(cids)
      expect((await store.blocks.listUnindexedContents(cids[0], 1)).map((c) => c.cid)).toEqual([cids[1]])
    })
  })
}
