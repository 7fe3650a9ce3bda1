import { createHash, randomUUID } from 'node:crypto'
import type { BlockLocation, PinRequestRecord, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { at, contentFor, fileBuilder, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

const newFile = fileBuilder()

function location(label: string): BlockLocation {
  const multihash = Uint8Array.from([0x12, 0x20, ...createHash('sha256').update(label).digest()])
  return { multihash, codec: 0x55, source: 'blob', offset: 0, length: 10, isRoot: false }
}

function pinRequest(fields: Partial<PinRequestRecord>): PinRequestRecord {
  return {
    id: randomUUID(),
    tenantId: TENANT,
    userId: 'user-1',
    cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
    name: 'pinned',
    groupId: null,
    keyvalues: {},
    hostNodes: [],
    state: 'queued',
    failure: null,
    reason: null,
    createdAt: at(0),
    attempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    replaces: null,
    dagSize: null,
    ...fields,
  }
}

/** `DeploymentTotalsRecordStore`: sums over every tenant, for an operator's metrics. */
export function describeDeploymentTotals(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`RecordStore conformance: ${name}: deployment totals`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    it('storedTotals - an empty store is all zeros', async () => {
      expect(await store.totals.storedTotals()).toEqual({
        files: 0,
        logicalBytes: 0,
        contents: 0,
        physicalBytes: 0,
        blocks: 0,
      })
    })

    it('storedTotals - files and their bytes per record, contents and blob bytes once each, across tenants', async () => {
      const shared = newFile({ size: 1000 })
      const content = contentFor(shared)
      await store.blocks.putBlockLocations(content.blobKey, [location('a'), location('b')])
      await store.files.createFile(shared, content)
      // the same content held again by another tenant: logical bytes twice, physical once
      const again = newFile({ tenantId: OTHER_TENANT, cid: shared.cid, size: 1000 })
      await store.files.createFile(again, content)
      const other = newFile({ size: 50, network: 'private' })
      await store.files.createFile(other, contentFor(other))
      expect(await store.totals.storedTotals()).toEqual({
        files: 3,
        logicalBytes: 2050,
        contents: 2,
        physicalBytes: 1050,
        blocks: 2,
      })
      await store.files.deleteFile(OTHER_TENANT, 'public', again.id)
      expect(await store.totals.storedTotals()).toMatchObject({ files: 2, logicalBytes: 1050, contents: 2 })
    })

    it('pinStateTotals - every state listed, with its count and oldest request, across tenants', async () => {
      const empty = await store.totals.pinStateTotals()
      expect(empty).toEqual(
        ['queued', 'retrieving', 'pinned', 'failed'].map((state) => ({ state, count: 0, oldestCreatedAt: undefined })),
      )
      await store.pinRequests.createPinRequest(pinRequest({ createdAt: at(5) }))
      await store.pinRequests.createPinRequest(pinRequest({ createdAt: at(2), tenantId: OTHER_TENANT }))
      await store.pinRequests.createPinRequest(pinRequest({ createdAt: at(9) }))
      const claimed = await store.pinRequests.claimPinRequest('worker-1', at(10), 60_000)
      expect(claimed?.createdAt).toEqual(at(2)) // the oldest queued: the other tenant's
      const byState = Object.fromEntries((await store.totals.pinStateTotals()).map((t) => [t.state, t]))
      expect(byState.queued).toEqual({ state: 'queued', count: 2, oldestCreatedAt: at(5) })
      expect(byState.retrieving).toEqual({ state: 'retrieving', count: 1, oldestCreatedAt: at(2) })
      await store.pinRequests.finishPinRequest(claimed!.id, 'worker-1', {
        state: 'failed',
        failure: 'not_found',
        reason: 'no source had it',
      })
      const after = Object.fromEntries((await store.totals.pinStateTotals()).map((t) => [t.state, t.count]))
      expect(after).toEqual({ queued: 2, retrieving: 0, pinned: 0, failed: 1 })
    })
  })
}
