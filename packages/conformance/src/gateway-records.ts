import { randomUUID } from 'node:crypto'
import type { DomainRecord, Network, NewFile, RecordStore, SignatureRecord, SwapRecord } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { at, fileBuilder, newCid, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

const newFile = fileBuilder({ network: 'public', name: 'page.html', size: 10, mimeType: 'text/html' })

const swap = (cid: string, mappedCid: string, fields: Partial<SwapRecord> = {}): SwapRecord => ({
  tenantId: TENANT,
  network: 'public',
  cid,
  mappedCid,
  createdAt: at(1),
  ...fields,
})

const signature = (cid: string, fields: Partial<SignatureRecord> = {}): SignatureRecord => ({
  tenantId: TENANT,
  network: 'public',
  cid,
  signature: `0x${'ab'.repeat(65)}`,
  address: '0x0000000000000000000000000000000000000001',
  createdAt: at(2),
  ...fields,
})

const domain = (fields: Partial<DomainRecord> = {}): DomainRecord => ({
  id: randomUUID(),
  tenantId: TENANT,
  domain: `${randomUUID().slice(0, 8)}.example.com`,
  verificationToken: randomUUID(),
  status: 'pending_ownership',
  createdAt: at(3),
  verifiedAt: null,
  expiresAt: at(50),
  ...fields,
})

/** The gateway part of the RecordStore contract: public lookups, swaps, signatures, domains, expiry. */
export function describeGatewayRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`RecordStore conformance (gateway): ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    async function addFile(fields: Partial<NewFile> = {}) {
      const file = newFile(fields)
      await store.files.createFile(file, {
        cid: file.cid,
        blobKey: `blobs/${randomUUID()}`,
        size: 10,
        kind: 'file',
        profile: 'v1',
      })
      return file
    }

    describe('swaps', () => {
      it('putSwap - replaces the current mapping and keeps the history newest first', async () => {
        const [a, b, c] = [newCid(), newCid(), newCid()]
        await store.gateway.putSwap(swap(a, b, { createdAt: at(1) }))
        await store.gateway.putSwap(swap(a, c, { createdAt: at(2) }))
        expect((await store.gateway.getSwap(TENANT, 'public', a))?.mappedCid).toBe(c)
        const history = await store.gateway.listSwapHistory(TENANT, 'public', a)
        expect(history.map((s) => s.mappedCid)).toEqual([c, b])
        expect(history[0]).toEqual(swap(a, c, { createdAt: at(2) }))
      })

      it('putSwap - refuses a self-swap and any mapping that closes a cycle, changing nothing', async () => {
        const [a, b, c] = [newCid(), newCid(), newCid()]
        await expect(store.gateway.putSwap(swap(a, a))).rejects.toMatchObject({ code: 'CONFLICT' })
        await store.gateway.putSwap(swap(a, b))
        await store.gateway.putSwap(swap(b, c))
        await expect(store.gateway.putSwap(swap(c, a))).rejects.toMatchObject({ code: 'CONFLICT' })
        expect(await store.gateway.getSwap(TENANT, 'public', c)).toBeUndefined()
        expect(await store.gateway.listSwapHistory(TENANT, 'public', c)).toEqual([])
        // the same edges in another tenant or network are not a cycle
        await store.gateway.putSwap(swap(c, a, { tenantId: OTHER_TENANT }))
        await store.gateway.putSwap(swap(c, a, { network: 'private' }))
      })

      it('putSwap - of two concurrent swaps that together form a cycle, exactly one succeeds', async () => {
        for (let round = 0; round < 5; round++) {
          const [a, b] = [newCid(), newCid()]
          const results = await Promise.allSettled([
            store.gateway.putSwap(swap(a, b)),
            store.gateway.putSwap(swap(b, a)),
          ])
          expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
          const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
          expect(rejected.reason).toMatchObject({ code: 'CONFLICT' })
          const live = [
            await store.gateway.getSwap(TENANT, 'public', a),
            await store.gateway.getSwap(TENANT, 'public', b),
          ]
          expect(live.filter(Boolean)).toHaveLength(1)
        }
      })

      it('deleteSwap - removes the current mapping, keeps history, and is tenant and network scoped', async () => {
        const [a, b] = [newCid(), newCid()]
        await store.gateway.putSwap(swap(a, b))
        expect(await store.gateway.deleteSwap(OTHER_TENANT, 'public', a)).toBe(false)
        expect(await store.gateway.deleteSwap(TENANT, 'private', a)).toBe(false)
        expect(await store.gateway.getSwap(OTHER_TENANT, 'public', a)).toBeUndefined()
        expect(await store.gateway.listSwapHistory(OTHER_TENANT, 'public', a)).toEqual([])
        expect(await store.gateway.deleteSwap(TENANT, 'public', a)).toBe(true)
        expect(await store.gateway.deleteSwap(TENANT, 'public', a)).toBe(false)
        expect(await store.gateway.getSwap(TENANT, 'public', a)).toBeUndefined()
        expect(await store.gateway.listSwapHistory(TENANT, 'public', a)).toHaveLength(1)
        // a removed mapping no longer counts for cycles
        await store.gateway.putSwap(swap(b, a))
      })
    })

    describe('signatures', () => {
      it('addSignature - stores once per tenant, network and CID; a second add is a CONFLICT', async () => {
        const cid = newCid()
        expect(await store.gateway.addSignature(signature(cid))).toEqual(signature(cid))
        await expect(store.gateway.addSignature(signature(cid, { signature: '0x01' }))).rejects.toMatchObject({
          code: 'CONFLICT',
        })
        expect(await store.gateway.getSignature(TENANT, 'public', cid)).toEqual(signature(cid))
        expect(await store.gateway.getSignature(OTHER_TENANT, 'public', cid)).toBeUndefined()
        expect(await store.gateway.getSignature(TENANT, 'private', cid)).toBeUndefined()
        await store.gateway.addSignature(signature(cid, { tenantId: OTHER_TENANT }))
      })

      it('addSignature - of concurrent adds for one CID exactly one succeeds', async () => {
        const cid = newCid()
        const results = await Promise.allSettled(
          Array.from({ length: 6 }, (_, i) => store.gateway.addSignature(signature(cid, { signature: `0x0${i}` }))),
        )
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      })

      it('deleteSignature - removes it once, scoped to the tenant', async () => {
        const cid = newCid()
        await store.gateway.addSignature(signature(cid))
        expect(await store.gateway.deleteSignature(OTHER_TENANT, 'public', cid)).toBe(false)
        expect(await store.gateway.deleteSignature(TENANT, 'public', cid)).toBe(true)
        expect(await store.gateway.deleteSignature(TENANT, 'public', cid)).toBe(false)
        expect(await store.gateway.getSignature(TENANT, 'public', cid)).toBeUndefined()
      })
    })

    describe('domains', () => {
      it('createDomain - pending claims of several tenants coexist; one claim per tenant; concurrent claims by one tenant, one winner', async () => {
        const first = domain()
        expect(await store.gateway.createDomain(first)).toEqual(first)
        const theirs = await store.gateway.createDomain(domain({ domain: first.domain, tenantId: OTHER_TENANT }))
        expect(theirs.domain).toBe(first.domain)
        await expect(store.gateway.createDomain(domain({ domain: first.domain }))).rejects.toMatchObject({
          code: 'CONFLICT',
        })
        await expect(
          store.gateway.createDomain(domain({ id: first.id, domain: 'other.example.com' })),
        ).rejects.toMatchObject({
          code: 'CONFLICT',
        })
        const name = 'race.example.org'
        const results = await Promise.allSettled(
          Array.from({ length: 5 }, () => store.gateway.createDomain(domain({ domain: name }))),
        )
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'CONFLICT' })
        expect((await store.gateway.findDomain(name, at(4)))?.domain).toBe(name)
      })

      it('activateDomain - one active claim per name; concurrent activations, one winner; no new claims after', async () => {
        const name = 'owned.example.org'
        const claims = await Promise.all(
          ['t0', 't1', 't2', 't3'].map((tenantId) => store.gateway.createDomain(domain({ domain: name, tenantId }))),
        )
        const results = await Promise.allSettled(
          claims.map((c) => store.gateway.activateDomain(c.tenantId, c.id, at(9))),
        )
        const winners = results.filter((r) => r.status === 'fulfilled')
        expect(winners).toHaveLength(1)
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'CONFLICT' })
        const active = (winners[0] as PromiseFulfilledResult<DomainRecord>).value
        expect(active).toMatchObject({ domain: name, status: 'active', verifiedAt: at(9), expiresAt: null })
        expect(await store.gateway.findDomain(name, at(10))).toEqual(active)
        await expect(store.gateway.createDomain(domain({ domain: name, tenantId: 'late' }))).rejects.toMatchObject({
          code: 'CONFLICT',
        })
        // an active claim never lapses
        expect(await store.gateway.findDomain(name, at(10_000))).toEqual(active)
      })

      it('createDomain - a claim created active routes at once; of concurrent active claims by many tenants, one wins', async () => {
        const name = 'dedicated.gw.example.org'
        const active = (tenantId: string) =>
          domain({ domain: name, tenantId, status: 'active', verifiedAt: at(3), expiresAt: null })
        const results = await Promise.allSettled(
          ['t0', 't1', 't2', 't3', 't4'].map((t) => store.gateway.createDomain(active(t))),
        )
        const winners = results.filter((r) => r.status === 'fulfilled')
        expect(winners).toHaveLength(1)
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'CONFLICT' })
        const winner = (winners[0] as PromiseFulfilledResult<DomainRecord>).value
        expect(await store.gateway.findDomain(name, at(10_000))).toEqual(winner)
        // no pending claim either once the name is active
        await expect(store.gateway.createDomain(domain({ domain: name, tenantId: 'late' }))).rejects.toMatchObject({
          code: 'CONFLICT',
        })
        expect(await store.gateway.deleteDomain(winner.tenantId, winner.id)).toBe(true)
        expect(await store.gateway.findDomain(name, at(10_000))).toBeUndefined()
        expect((await store.gateway.createDomain(active('t9'))).tenantId).toBe('t9')
      })

      it('findDomain, createDomain - a lapsed pending claim neither routes nor blocks a new claim', async () => {
        const name = 'lapsed.example.org'
        const old = await store.gateway.createDomain(domain({ domain: name, createdAt: at(1), expiresAt: at(5) }))
        const other = await store.gateway.createDomain(
          domain({ domain: name, tenantId: OTHER_TENANT, createdAt: at(2), expiresAt: at(20) }),
        )
        // the newest live claim routes; at 5 the first has lapsed
        expect((await store.gateway.findDomain(name, at(3)))?.id).toBe(other.id)
        expect(await store.gateway.findDomain(name, at(20))).toBeUndefined()
        const again = await store.gateway.createDomain(domain({ domain: name, createdAt: at(6), expiresAt: at(30) }))
        expect(await store.gateway.getDomain(TENANT, old.id)).toBeUndefined()
        expect((await store.gateway.findDomain(name, at(7)))?.id).toBe(again.id)
        expect(await store.gateway.findDomain(name, at(30))).toBeUndefined()
      })

      it('getDomain, listDomains, activateDomain, deleteDomain - tenant scoped', async () => {
        const mine = await store.gateway.createDomain(domain({ createdAt: at(1) }))
        const second = await store.gateway.createDomain(domain({ createdAt: at(2) }))
        const theirs = await store.gateway.createDomain(domain({ tenantId: OTHER_TENANT }))
        expect((await store.gateway.listDomains(TENANT)).map((d) => d.id)).toEqual([mine.id, second.id])
        expect(await store.gateway.getDomain(TENANT, theirs.id)).toBeUndefined()
        expect(await store.gateway.getDomain(TENANT, 'not-a-uuid')).toBeUndefined()
        expect(await store.gateway.activateDomain(TENANT, theirs.id, at(9))).toBeUndefined()
        expect((await store.gateway.getDomain(OTHER_TENANT, theirs.id))?.status).toBe('pending_ownership')
        const active = await store.gateway.activateDomain(TENANT, mine.id, at(9))
        expect(active).toEqual({ ...mine, status: 'active', verifiedAt: at(9), expiresAt: null })
        expect(await store.gateway.activateDomain(TENANT, mine.id, at(10))).toEqual(active)
        expect(await store.gateway.findDomain(mine.domain, at(10))).toEqual(active)
        expect(await store.gateway.deleteDomain(TENANT, theirs.id)).toBe(false)
        expect(await store.gateway.deleteDomain(TENANT, mine.id)).toBe(true)
        expect(await store.gateway.deleteDomain(TENANT, mine.id)).toBe(false)
        expect(await store.gateway.findDomain(mine.domain, at(10))).toBeUndefined()
      })
    })

    describe('listExpiredFiles', () => {
      it('listExpiredFiles - files of any tenant expired at or before now, soonest first, up to limit', async () => {
        const late = await addFile({ expiresAt: at(30), tenantId: OTHER_TENANT, network: 'private' })
        const early = await addFile({ expiresAt: at(10) })
        const onTime = await addFile({ expiresAt: at(20) })
        await addFile({ expiresAt: at(40) })
        await addFile({ expiresAt: null })
        const ids = async (now: Date, limit = 100) =>
          (await store.gateway.listExpiredFiles(now, limit)).map((f) => f.id)
        expect(await ids(at(5))).toEqual([])
        expect(await ids(at(20))).toEqual([early.id, onTime.id])
        expect(await ids(at(35))).toEqual([early.id, onTime.id, late.id])
        expect(await ids(at(35), 1)).toEqual([early.id])
        await store.files.deleteFile(TENANT, 'public', early.id)
        expect(await ids(at(35))).toEqual([onTime.id, late.id])
      })
    })

    it('every gateway method - an aborted signal rejects with ABORTED', async () => {
      const signal = AbortSignal.abort()
      const cid = newCid()
      const network: Network = 'public'
      const calls: [string, () => Promise<unknown>][] = [
        ['putSwap', () => store.gateway.putSwap(swap(cid, newCid()), { signal })],
        ['getSwap', () => store.gateway.getSwap(TENANT, network, cid, { signal })],
        ['listSwapHistory', () => store.gateway.listSwapHistory(TENANT, network, cid, { signal })],
        ['deleteSwap', () => store.gateway.deleteSwap(TENANT, network, cid, { signal })],
        ['addSignature', () => store.gateway.addSignature(signature(cid), { signal })],
        ['getSignature', () => store.gateway.getSignature(TENANT, network, cid, { signal })],
        ['deleteSignature', () => store.gateway.deleteSignature(TENANT, network, cid, { signal })],
        ['createDomain', () => store.gateway.createDomain(domain(), { signal })],
        ['getDomain', () => store.gateway.getDomain(TENANT, randomUUID(), { signal })],
        ['listDomains', () => store.gateway.listDomains(TENANT, { signal })],
        ['findDomain', () => store.gateway.findDomain('x.example.com', at(1), { signal })],
        ['activateDomain', () => store.gateway.activateDomain(TENANT, randomUUID(), at(1), { signal })],
        ['deleteDomain', () => store.gateway.deleteDomain(TENANT, randomUUID(), { signal })],
        ['listExpiredFiles', () => store.gateway.listExpiredFiles(at(1), 10, { signal })],
      ]
      for (const [method, call] of calls) await expect(call(), method).rejects.toMatchObject({ code: 'ABORTED' })
      expect(await store.gateway.getSwap(TENANT, network, cid)).toBeUndefined()
      expect(await store.gateway.getSignature(TENANT, network, cid)).toBeUndefined()
      expect(await store.gateway.listDomains(TENANT)).toEqual([])
    })
  })
}
