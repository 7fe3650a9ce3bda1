import { randomUUID } from 'node:crypto'
import type { PageRequest, PinRequestFilter, PinRequestRecord, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second))
const LEASE_MS = 30_000

function newRequest(fields: Partial<PinRequestRecord> = {}): PinRequestRecord {
  return {
    id: randomUUID(),
    tenantId: 'tenant-a',
    userId: 'user-1',
    cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
    name: 'hello.txt',
    groupId: null,
    keyvalues: { env: 'prod' },
    hostNodes: ['/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWGRUVh8ZmaFDsg6UKaRv9bCZNwmtRJ3bmQf3xs2AB4qnE'],
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

const aborted = () => ({ signal: AbortSignal.abort() })
const firstPage: PageRequest = { limit: 100, order: 'ASC' }

/** The PinRequestRecordStore contract: the pin-by-CID queue shared by every worker of a deployment. */
export function describePinRequestRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`PinRequestRecordStore conformance: ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    it('createPinRequest - stores the request exactly as given; reusing an id is a CONFLICT', async () => {
      const request = newRequest({ groupId: randomUUID(), keyvalues: { a: '1', b: 'two' } })
      await store.pinRequests.createPinRequest(request)
      expect(await store.pinRequests.getPinRequest('tenant-a', request.id)).toEqual(request)
      const bare = newRequest({ keyvalues: {}, hostNodes: [] })
      await store.pinRequests.createPinRequest(bare)
      expect(await store.pinRequests.getPinRequest('tenant-a', bare.id)).toEqual(bare)
      await expect(
        store.pinRequests.createPinRequest(newRequest({ id: request.id, name: 'other' })),
      ).rejects.toMatchObject({
        code: 'CONFLICT',
      })
      expect((await store.pinRequests.getPinRequest('tenant-a', request.id))?.name).toBe('hello.txt')
    })

    it("getPinRequest / deletePinRequest - another tenant's request and unknown ids are absent", async () => {
      const request = newRequest()
      await store.pinRequests.createPinRequest(request)
      expect(await store.pinRequests.getPinRequest('tenant-b', request.id)).toBeUndefined()
      expect(await store.pinRequests.getPinRequest('tenant-a', randomUUID())).toBeUndefined()
      expect(await store.pinRequests.getPinRequest('tenant-a', 'not-an-id')).toBeUndefined()
      expect(await store.pinRequests.deletePinRequest('tenant-b', request.id)).toBeUndefined()
      expect(await store.pinRequests.deletePinRequest('tenant-a', 'not-an-id')).toBeUndefined()
      expect(await store.pinRequests.getPinRequest('tenant-a', request.id)).toEqual(request)
    })

    it('listPinQueue - every tenant’s requests by state, paged in (createdAt, id) order', async () => {
      const a1 = newRequest({ createdAt: at(1) })
      const b2 = newRequest({ tenantId: 'tenant-b', createdAt: at(2) })
      const a3 = newRequest({ createdAt: at(3), state: 'failed', failure: 'not_found', reason: 'none had it' })
      const c4 = newRequest({ tenantId: 'tenant-c', createdAt: at(4) })
      for (const r of [c4, a3, b2, a1]) await store.pinRequests.createPinRequest(r)
      const queued = await store.pinRequests.listPinQueue({ states: ['queued'] }, { limit: 2, order: 'ASC' })
      expect(queued.items.map((r) => r.id)).toEqual([a1.id, b2.id])
      expect(queued.hasMore).toBe(true)
      const rest = await store.pinRequests.listPinQueue(
        { states: ['queued'] },
        { limit: 2, order: 'ASC', after: { createdAt: b2.createdAt, id: b2.id } },
      )
      expect(rest).toEqual({ items: [c4], hasMore: false })
      const all = await store.pinRequests.listPinQueue({}, { limit: 10, order: 'DESC' })
      expect(all.items.map((r) => r.id)).toEqual([c4.id, a3.id, b2.id, a1.id])
      const failed = await store.pinRequests.listPinQueue({ states: ['failed', 'pinned'] }, firstPage)
      expect(failed.items).toEqual([a3])
    })

    it('listPinRequests - pages in (createdAt, id) order, scoped to the tenant, filtered by state, failure and cid', async () => {
      const requests = [0, 1, 2, 3, 4].map((i) =>
        newRequest({ createdAt: at(i), cid: i % 2 ? 'bafy-odd' : 'bafy-even' }),
      )
      for (const r of requests) await store.pinRequests.createPinRequest(r)
      // pinned: never claimed, so the claims below take tenant-a's requests in order
      await store.pinRequests.createPinRequest(newRequest({ tenantId: 'tenant-b', createdAt: at(9), state: 'pinned' }))
      const ids = (page: { items: PinRequestRecord[] }) => page.items.map((r) => r.id)
      const all = requests.map((r) => r.id)
      expect(ids(await store.pinRequests.listPinRequests('tenant-a', {}, firstPage))).toEqual(all)
      expect(ids(await store.pinRequests.listPinRequests('tenant-a', {}, { limit: 100, order: 'DESC' }))).toEqual(
        [...all].reverse(),
      )
      const first = await store.pinRequests.listPinRequests('tenant-a', {}, { limit: 2, order: 'ASC' })
      expect(first).toMatchObject({ hasMore: true })
      expect(ids(first)).toEqual(all.slice(0, 2))
      const after = { createdAt: requests[1]!.createdAt, id: requests[1]!.id }
      const rest = await store.pinRequests.listPinRequests('tenant-a', {}, { limit: 3, order: 'ASC', after })
      expect(rest.hasMore).toBe(false)
      expect(ids(rest)).toEqual(all.slice(2))
      expect(ids(await store.pinRequests.listPinRequests('tenant-a', { cids: ['bafy-odd'] }, firstPage))).toEqual([
        all[1],
        all[3],
      ])

      // one request of each end state
      const claimed = await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      expect(claimed?.id).toBe(all[0])
      await store.pinRequests.finishPinRequest(all[0]!, 'worker', {
        state: 'failed',
        failure: 'too_large',
        reason: 'over 1 GiB',
      })
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      await store.pinRequests.finishPinRequest(all[1]!, 'worker', { state: 'pinned', dagSize: 42 })
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      expect(ids(await store.pinRequests.listPinRequests('tenant-a', { states: ['queued'] }, firstPage))).toEqual(
        all.slice(3),
      )
      expect(
        ids(await store.pinRequests.listPinRequests('tenant-a', { states: ['queued', 'retrieving'] }, firstPage)),
      ).toEqual(all.slice(2))
      expect(ids(await store.pinRequests.listPinRequests('tenant-a', { states: ['pinned'] }, firstPage))).toEqual([
        all[1],
      ])
      expect(ids(await store.pinRequests.listPinRequests('tenant-a', { failures: ['too_large'] }, firstPage))).toEqual([
        all[0],
      ])
      expect(
        ids(await store.pinRequests.listPinRequests('tenant-a', { failures: ['not_found', 'timed_out'] }, firstPage)),
      ).toEqual([])
      expect(
        ids(
          await store.pinRequests.listPinRequests('tenant-a', { states: ['failed'], cids: ['bafy-even'] }, firstPage),
        ),
      ).toEqual([all[0]])
    })

    it('claimPinRequest - takes the oldest queued request, leases it and counts the attempt', async () => {
      const older = newRequest({ createdAt: at(1) })
      const newer = newRequest({ createdAt: at(2) })
      await store.pinRequests.createPinRequest(newer)
      await store.pinRequests.createPinRequest(older)
      const claimed = await store.pinRequests.claimPinRequest('worker-1', at(10), LEASE_MS)
      expect(claimed).toEqual({
        ...older,
        state: 'retrieving',
        attempts: 1,
        leaseOwner: 'worker-1',
        leaseExpiresAt: new Date(at(10).getTime() + LEASE_MS),
      })
      expect(await store.pinRequests.getPinRequest('tenant-a', older.id)).toEqual(claimed)
      expect((await store.pinRequests.claimPinRequest('worker-2', at(10), LEASE_MS))?.id).toBe(newer.id)
      // both are leased and their leases are alive: nothing to claim
      expect(await store.pinRequests.claimPinRequest('worker-3', at(11), LEASE_MS)).toBeUndefined()
    })

    it("claimPinRequest - passes over excluded tenants' requests, an expired lease's too, and claims them once not excluded", async () => {
      const held = newRequest({ tenantId: 'tenant-held', createdAt: at(1) })
      const other = newRequest({ tenantId: 'tenant-b', createdAt: at(2) })
      await store.pinRequests.createPinRequest(held)
      await store.pinRequests.createPinRequest(other)
      const excludeTenants = ['tenant-held', 'tenant-gone']
      expect((await store.pinRequests.claimPinRequest('w', at(10), LEASE_MS, { excludeTenants }))?.id).toBe(other.id)
      await store.pinRequests.finishPinRequest(other.id, 'w', { state: 'pinned', dagSize: 1 })
      expect(await store.pinRequests.claimPinRequest('w', at(10), LEASE_MS, { excludeTenants })).toBeUndefined()
      // claimed, then its lease ran out (its worker died): still passed over while excluded
      expect((await store.pinRequests.claimPinRequest('w', at(10), LEASE_MS))?.id).toBe(held.id)
      const expired = new Date(at(10).getTime() + LEASE_MS + 1)
      expect(await store.pinRequests.claimPinRequest('w2', expired, LEASE_MS, { excludeTenants })).toBeUndefined()
      expect(await store.pinRequests.getPinRequest('tenant-held', held.id)).toMatchObject({ attempts: 1 })
      expect((await store.pinRequests.claimPinRequest('w2', expired, LEASE_MS, { excludeTenants: [] }))?.id).toBe(
        held.id,
      )
    })

    it('claimPinRequest - of many concurrent claimers each request goes to exactly one', async () => {
      const requests = [0, 1, 2, 3, 4].map((i) => newRequest({ createdAt: at(i) }))
      for (const r of requests) await store.pinRequests.createPinRequest(r)
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store.pinRequests.claimPinRequest(`worker-${i}`, at(10), LEASE_MS)),
      )
      const won = claims.filter((c): c is PinRequestRecord => c !== undefined)
      expect(won.map((c) => c.id).sort()).toEqual(requests.map((r) => r.id).sort())
      for (const claim of won)
        expect((await store.pinRequests.getPinRequest('tenant-a', claim.id))?.leaseOwner).toBe(claim.leaseOwner)
    })

    it("claimPinRequest - tenants take turns: another tenant's newer request is claimed before the first tenant's later ones", async () => {
      const backlog = [0, 1, 2, 3, 4].map((i) => newRequest({ createdAt: at(i) }))
      for (const r of backlog) await store.pinRequests.createPinRequest(r)
      const other = newRequest({ tenantId: 'tenant-b', createdAt: at(9) })
      await store.pinRequests.createPinRequest(other)
      // one worker that finishes each job before claiming the next: running counts stay equal, turns decide
      const order: string[] = []
      for (;;) {
        const claimed = await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
        if (!claimed) break
        order.push(claimed.id)
        await store.pinRequests.finishPinRequest(claimed.id, 'worker', { state: 'pinned', dagSize: 42 })
      }
      expect(order).toEqual([backlog[0]!.id, other.id, ...backlog.slice(1).map((r) => r.id)])
    })

    it("claimPinRequest - concurrent claims go to the tenant with the fewest running: one tenant's backlog never holds every claim", async () => {
      const backlog = [0, 1, 2, 3, 4].map((i) => newRequest({ createdAt: at(i) }))
      for (const r of backlog) await store.pinRequests.createPinRequest(r)
      const b = newRequest({ tenantId: 'tenant-b', createdAt: at(8) })
      const c = newRequest({ tenantId: 'tenant-c', createdAt: at(9) })
      await store.pinRequests.createPinRequest(b)
      await store.pinRequests.createPinRequest(c)
      const claims = await Promise.all(
        Array.from({ length: 4 }, (_, i) => store.pinRequests.claimPinRequest(`worker-${i}`, at(10), LEASE_MS)),
      )
      const ids = claims.map((claim) => claim?.id)
      // every tenant got one before tenant-a got a second, and tenant-a's second is its next oldest
      expect([...ids].sort()).toEqual([backlog[0]!.id, backlog[1]!.id, b.id, c.id].sort())
      // while they run, tenant-a (2 running) waits behind a newcomer with none
      const d = newRequest({ tenantId: 'tenant-d', createdAt: at(20) })
      await store.pinRequests.createPinRequest(d)
      expect((await store.pinRequests.claimPinRequest('worker-5', at(11), LEASE_MS))?.id).toBe(d.id)
    })

    it('claimPinRequest - a tenant with maxRunningPerTenant running is passed over; an expired lease no longer counts', async () => {
      const mine = [0, 1, 2].map((i) => newRequest({ createdAt: at(i) }))
      for (const r of mine) await store.pinRequests.createPinRequest(r)
      const long = LEASE_MS * 10
      expect(
        (await store.pinRequests.claimPinRequest('worker-1', at(10), LEASE_MS, { maxRunningPerTenant: 1 }))?.id,
      ).toBe(mine[0]!.id)
      expect(
        await store.pinRequests.claimPinRequest('worker-2', at(10), long, { maxRunningPerTenant: 1 }),
      ).toBeUndefined()
      const other = newRequest({ tenantId: 'tenant-b', createdAt: at(5) })
      await store.pinRequests.createPinRequest(other)
      expect((await store.pinRequests.claimPinRequest('worker-2', at(10), long, { maxRunningPerTenant: 1 }))?.id).toBe(
        other.id,
      )
      // with room for two, tenant-a's next one is claimable
      expect((await store.pinRequests.claimPinRequest('worker-3', at(10), long, { maxRunningPerTenant: 2 }))?.id).toBe(
        mine[1]!.id,
      )
      expect(
        await store.pinRequests.claimPinRequest('worker-4', at(39), long, { maxRunningPerTenant: 2 }),
      ).toBeUndefined()
      // worker-1's lease runs out: its request no longer counts as running, and is claimable again
      const retaken = await store.pinRequests.claimPinRequest('worker-4', at(40), long, { maxRunningPerTenant: 2 })
      expect(retaken).toMatchObject({ id: mine[0]!.id, leaseOwner: 'worker-4', attempts: 2 })
    })

    it('createPinRequest - over maxOpenPerTenant is RATE_LIMITED and stores nothing; of concurrent creates exactly the room left are stored', async () => {
      const cap = { maxOpenPerTenant: 3 }
      const first = newRequest({ createdAt: at(0) })
      await store.pinRequests.createPinRequest(first, cap)
      const attempts = Array.from({ length: 8 }, (_, i) => newRequest({ createdAt: at(i + 1) }))
      const results = await Promise.allSettled(attempts.map((r) => store.pinRequests.createPinRequest(r, cap)))
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2)
      for (const result of results.filter((r) => r.status === 'rejected'))
        expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'RATE_LIMITED' })
      expect((await store.pinRequests.listPinRequests('tenant-a', {}, firstPage)).items).toHaveLength(3)
      // another tenant has its own room
      await store.pinRequests.createPinRequest(newRequest({ tenantId: 'tenant-b', createdAt: at(30) }), cap)
      // a finished request frees its place; a running one does not
      await store.pinRequests.claimPinRequest('worker', at(20), LEASE_MS)
      await expect(store.pinRequests.createPinRequest(newRequest(), cap)).rejects.toMatchObject({
        code: 'RATE_LIMITED',
      })
      await store.pinRequests.finishPinRequest(first.id, 'worker', {
        state: 'failed',
        failure: 'not_found',
        reason: 'gone',
      })
      await store.pinRequests.createPinRequest(newRequest(), cap)
      await expect(store.pinRequests.createPinRequest(newRequest(), cap)).rejects.toMatchObject({
        code: 'RATE_LIMITED',
      })
      expect((await store.pinRequests.listPinRequests('tenant-a', {}, firstPage)).items).toHaveLength(4)
    })

    it("claimPinRequest - a lease that ran out is taken over; the old owner's renew and finish then fail", async () => {
      const request = newRequest()
      await store.pinRequests.createPinRequest(request)
      await store.pinRequests.claimPinRequest('crashed', at(10), LEASE_MS)
      // still alive a moment before it ends
      expect(await store.pinRequests.claimPinRequest('other', at(39), LEASE_MS)).toBeUndefined()
      const taken = await store.pinRequests.claimPinRequest('other', at(40), LEASE_MS)
      expect(taken).toMatchObject({ id: request.id, leaseOwner: 'other', attempts: 2, state: 'retrieving' })
      expect(await store.pinRequests.renewPinLease(request.id, 'crashed', at(100))).toBe(false)
      expect(await store.pinRequests.finishPinRequest(request.id, 'crashed', { state: 'pinned', dagSize: 42 })).toBe(
        false,
      )
      expect(await store.pinRequests.releasePinRequest(request.id, 'crashed')).toBe(false)
      expect((await store.pinRequests.getPinRequest('tenant-a', request.id))?.leaseOwner).toBe('other')
    })

    it('renewPinLease - extends the lease its owner holds, so it is not taken over', async () => {
      const request = newRequest()
      await store.pinRequests.createPinRequest(request)
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      expect(await store.pinRequests.renewPinLease(request.id, 'worker', at(100))).toBe(true)
      expect((await store.pinRequests.getPinRequest('tenant-a', request.id))?.leaseExpiresAt).toEqual(at(100))
      expect(await store.pinRequests.claimPinRequest('other', at(99), LEASE_MS)).toBeUndefined()
      expect(await store.pinRequests.renewPinLease(request.id, 'stranger', at(200))).toBe(false)
      expect(await store.pinRequests.renewPinLease(randomUUID(), 'worker', at(200))).toBe(false)
    })

    it('finishPinRequest - ends the request with its outcome and clears the lease; only its owner can', async () => {
      const pinned = newRequest({ createdAt: at(1) })
      const failed = newRequest({ createdAt: at(2) })
      await store.pinRequests.createPinRequest(pinned)
      await store.pinRequests.createPinRequest(failed)
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      expect(await store.pinRequests.finishPinRequest(pinned.id, 'stranger', { state: 'pinned', dagSize: 42 })).toBe(
        false,
      )
      expect(await store.pinRequests.finishPinRequest(pinned.id, 'worker', { state: 'pinned', dagSize: 42 })).toBe(true)
      const reason = 'block bafy… was not found at any source'
      expect(
        await store.pinRequests.finishPinRequest(failed.id, 'worker', {
          state: 'failed',
          failure: 'not_found',
          reason,
        }),
      ).toBe(true)
      expect(await store.pinRequests.getPinRequest('tenant-a', pinned.id)).toEqual({
        ...pinned,
        state: 'pinned',
        attempts: 1,
        dagSize: 42,
      })
      expect(await store.pinRequests.getPinRequest('tenant-a', failed.id)).toEqual({
        ...failed,
        state: 'failed',
        failure: 'not_found',
        reason,
        attempts: 1,
      })
      // finished requests are never claimed again, nor finished twice
      expect(await store.pinRequests.claimPinRequest('worker', at(1000), LEASE_MS)).toBeUndefined()
      expect(await store.pinRequests.finishPinRequest(pinned.id, 'worker', { state: 'pinned', dagSize: 42 })).toBe(
        false,
      )
    })

    it('releasePinRequest - puts a held request back in the queue for the next claimer, its attempt uncounted', async () => {
      const request = newRequest()
      await store.pinRequests.createPinRequest(request)
      await store.pinRequests.claimPinRequest('stopping', at(10), LEASE_MS)
      expect(await store.pinRequests.releasePinRequest(request.id, 'stopping')).toBe(true)
      expect(await store.pinRequests.getPinRequest('tenant-a', request.id)).toEqual({ ...request, attempts: 0 })
      expect(await store.pinRequests.claimPinRequest('next', at(11), LEASE_MS)).toMatchObject({
        id: request.id,
        attempts: 1,
      })
    })

    it('releasePinRequest - with attempted, the attempt stays counted', async () => {
      const request = newRequest()
      await store.pinRequests.createPinRequest(request)
      await store.pinRequests.claimPinRequest('failing', at(10), LEASE_MS)
      expect(await store.pinRequests.releasePinRequest(request.id, 'failing', { attempted: true })).toBe(true)
      expect(await store.pinRequests.getPinRequest('tenant-a', request.id)).toEqual({ ...request, attempts: 1 })
      expect(await store.pinRequests.claimPinRequest('next', at(11), LEASE_MS)).toMatchObject({ attempts: 2 })
    })

    it('deletePinRequest - removes a queued, running or failed request; its worker learns it at renew or finish', async () => {
      const running = newRequest({ createdAt: at(1) })
      const queued = newRequest({ createdAt: at(2) })
      await store.pinRequests.createPinRequest(running)
      await store.pinRequests.createPinRequest(queued)
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      expect(await store.pinRequests.deletePinRequest('tenant-a', running.id)).toMatchObject({
        id: running.id,
        state: 'retrieving',
      })
      expect(await store.pinRequests.renewPinLease(running.id, 'worker', at(100))).toBe(false)
      expect(await store.pinRequests.finishPinRequest(running.id, 'worker', { state: 'pinned', dagSize: 42 })).toBe(
        false,
      )
      expect(await store.pinRequests.getPinRequest('tenant-a', running.id)).toBeUndefined()
      expect(await store.pinRequests.deletePinRequest('tenant-a', running.id)).toBeUndefined()
      expect(await store.pinRequests.deletePinRequest('tenant-a', queued.id)).toEqual(queued)
      expect(await store.pinRequests.claimPinRequest('worker', at(11), LEASE_MS)).toBeUndefined()
    })

    it('deletePinRequest - a pinned request stays: its file is managed as a file', async () => {
      const request = newRequest()
      await store.pinRequests.createPinRequest(request)
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      await store.pinRequests.finishPinRequest(request.id, 'worker', { state: 'pinned', dagSize: 42 })
      expect(await store.pinRequests.deletePinRequest('tenant-a', request.id)).toBeUndefined()
      expect((await store.pinRequests.getPinRequest('tenant-a', request.id))?.state).toBe('pinned')
      // with `pinned` (its file is being deleted) it goes, and only the tenant's
      expect(await store.pinRequests.deletePinRequest('tenant-b', request.id, { pinned: true })).toBeUndefined()
      expect(await store.pinRequests.deletePinRequest('tenant-a', request.id, { pinned: true })).toMatchObject({
        id: request.id,
        state: 'pinned',
      })
      expect(await store.pinRequests.getPinRequest('tenant-a', request.id)).toBeUndefined()
    })

    it('listPinRequests / countPinRequests - filter by CIDs, name (exact, iexact, partial, ipartial), before, after and keyvalues', async () => {
      const names = ['Report 100%.pdf', 'report_2.PDF', 'notes.txt']
      const requests = names.map((name, i) =>
        newRequest({ name, createdAt: at(i), cid: `bafy-${i}`, keyvalues: { app: i < 2 ? 'x' : 'y', n: String(i) } }),
      )
      for (const r of requests) await store.pinRequests.createPinRequest(r)
      await store.pinRequests.createPinRequest(newRequest({ tenantId: 'tenant-b', name: names[0]!, createdAt: at(1) }))
      const [a, b, c] = requests.map((r) => r.id)
      const both = async (filter: PinRequestFilter) => {
        const page = await store.pinRequests.listPinRequests('tenant-a', filter, firstPage)
        expect(await store.pinRequests.countPinRequests('tenant-a', filter)).toBe(page.items.length)
        return page.items.map((r) => r.id)
      }
      expect(await both({})).toEqual([a, b, c])
      expect(await both({ cids: ['bafy-0', 'bafy-2', 'bafy-9'] })).toEqual([a, c])
      expect(await both({ name: { text: 'report_2.PDF', match: 'exact' } })).toEqual([b])
      expect(await both({ name: { text: 'REPORT_2.pdf', match: 'exact' } })).toEqual([])
      expect(await both({ name: { text: 'REPORT_2.pdf', match: 'iexact' } })).toEqual([b])
      expect(await both({ name: { text: 'port', match: 'partial' } })).toEqual([a, b])
      expect(await both({ name: { text: 'PDF', match: 'partial' } })).toEqual([b])
      expect(await both({ name: { text: 'PDF', match: 'ipartial' } })).toEqual([a, b])
      // matched literally: `%` and `_` are no wildcards
      expect(await both({ name: { text: '100%', match: 'partial' } })).toEqual([a])
      expect(await both({ name: { text: 't_2', match: 'ipartial' } })).toEqual([b])
      expect(await both({ name: { text: '%', match: 'exact' } })).toEqual([])
      expect(await both({ before: at(2) })).toEqual([a, b])
      expect(await both({ before: at(2), states: ['queued'] })).toEqual([a, b])
      expect(await both({ before: at(2), states: ['pinned'] })).toEqual([])
      expect(await both({ before: at(0) })).toEqual([])
      expect(await both({ after: at(0) })).toEqual([b, c])
      expect(await both({ after: at(0), before: at(2) })).toEqual([b])
      expect(await both({ keyvalues: { app: 'x' } })).toEqual([a, b])
      expect(await both({ keyvalues: { app: 'x', n: '1' } })).toEqual([b])
      expect(await both({ keyvalues: { app: 'z' } })).toEqual([])
      expect(await both({ states: ['queued'], name: { text: 'notes', match: 'partial' } })).toEqual([c])
    })

    it('countPinRequests - counts by state follow every create, claim, finish, release, replace and delete', async () => {
      const counts = async () => {
        const out: Record<string, number> = {}
        for (const state of ['queued', 'retrieving', 'pinned', 'failed'] as const) {
          out[state] = await store.pinRequests.countPinRequests('tenant-a', { states: [state] })
        }
        return { ...out, all: await store.pinRequests.countPinRequests('tenant-a', {}) }
      }
      const [one, two, three] = [1, 2, 3].map((i) => newRequest({ createdAt: at(i) }))
      for (const r of [one!, two!, three!]) await store.pinRequests.createPinRequest(r)
      // pinned: never claimed, so the claims below take tenant-a's requests
      await store.pinRequests.createPinRequest(newRequest({ tenantId: 'tenant-b', state: 'pinned' }))
      expect(await counts()).toEqual({ queued: 3, retrieving: 0, pinned: 0, failed: 0, all: 3 })
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      expect(await counts()).toEqual({ queued: 1, retrieving: 2, pinned: 0, failed: 0, all: 3 })
      await store.pinRequests.finishPinRequest(one!.id, 'worker', { state: 'pinned', dagSize: 1 })
      await store.pinRequests.releasePinRequest(two!.id, 'worker')
      expect(await counts()).toEqual({ queued: 2, retrieving: 0, pinned: 1, failed: 0, all: 3 })
      expect(await store.pinRequests.countPinRequests('tenant-a', { states: ['queued', 'pinned'] })).toBe(3)
      await store.pinRequests.replacePinRequest(one!.id, newRequest({ createdAt: at(20) }))
      await store.pinRequests.deletePinRequest('tenant-a', three!.id)
      expect(await counts()).toEqual({ queued: 2, retrieving: 0, pinned: 0, failed: 0, all: 2 })
      expect(await store.pinRequests.countPinRequests('tenant-b', {})).toBe(1)
    })

    it('replacePinRequest - deletes the replaced request and stores the new one in one step; a pinned one is named in `replaces`', async () => {
      const pinned = newRequest({ createdAt: at(1) })
      await store.pinRequests.createPinRequest(pinned)
      await store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS)
      await store.pinRequests.finishPinRequest(pinned.id, 'worker', { state: 'pinned', dagSize: 7 })
      const next = newRequest({ createdAt: at(2), cid: 'bafy-next' })
      expect(await store.pinRequests.replacePinRequest(pinned.id, next)).toMatchObject({
        id: pinned.id,
        state: 'pinned',
      })
      expect(await store.pinRequests.getPinRequest('tenant-a', pinned.id)).toBeUndefined()
      expect(await store.pinRequests.getPinRequest('tenant-a', next.id)).toEqual({ ...next, replaces: pinned.id })
      // replacing a replacement still under way hands the kept file on
      const third = newRequest({ createdAt: at(3) })
      expect(await store.pinRequests.replacePinRequest(next.id, third)).toMatchObject({ id: next.id })
      expect((await store.pinRequests.getPinRequest('tenant-a', third.id))?.replaces).toBe(pinned.id)
      // another tenant's, or one gone: nothing stored
      const stray = newRequest({ tenantId: 'tenant-b' })
      expect(await store.pinRequests.replacePinRequest(third.id, stray)).toBeUndefined()
      expect(await store.pinRequests.replacePinRequest(next.id, newRequest())).toBeUndefined()
      expect(await store.pinRequests.replacePinRequest('not-an-id', newRequest())).toBeUndefined()
      expect(await store.pinRequests.getPinRequest('tenant-b', stray.id)).toBeUndefined()
      expect(await store.pinRequests.countPinRequests('tenant-a', {})).toBe(1)
    })

    it('replacePinRequest - of concurrent replaces of one request exactly one succeeds; the cap does not count the replaced one', async () => {
      const open = newRequest({ createdAt: at(1) })
      await store.pinRequests.createPinRequest(open)
      const cap = { maxOpenPerTenant: 1 }
      await expect(store.pinRequests.createPinRequest(newRequest(), cap)).rejects.toMatchObject({
        code: 'RATE_LIMITED',
      })
      const tries = Array.from({ length: 6 }, (_, i) => newRequest({ createdAt: at(10 + i) }))
      const results = await Promise.all(tries.map((r) => store.pinRequests.replacePinRequest(open.id, r, cap)))
      expect(results.filter((r) => r !== undefined)).toHaveLength(1)
      const stored = await store.pinRequests.listPinRequests('tenant-a', {}, firstPage)
      expect(stored.items.map((r) => r.id)).toEqual([tries[results.findIndex((r) => r !== undefined)]!.id])
      // past the cap with the replaced one gone: refused, and the replaced request stays
      const other = newRequest({ createdAt: at(30) })
      await expect(
        store.pinRequests.replacePinRequest(stored.items[0]!.id, other, { maxOpenPerTenant: 0 }),
      ).rejects.toMatchObject({ code: 'RATE_LIMITED' })
      expect(await store.pinRequests.getPinRequest('tenant-a', stored.items[0]!.id)).toBeDefined()
      expect(await store.pinRequests.getPinRequest('tenant-a', other.id)).toBeUndefined()
    })

    it('every method rejects an aborted signal with ABORTED', async () => {
      const request = newRequest()
      const calls = [
        () => store.pinRequests.createPinRequest(request, aborted()),
        () => store.pinRequests.getPinRequest('tenant-a', request.id, aborted()),
        () => store.pinRequests.listPinRequests('tenant-a', {}, firstPage, aborted()),
        () => store.pinRequests.claimPinRequest('worker', at(10), LEASE_MS, aborted()),
        () => store.pinRequests.renewPinLease(request.id, 'worker', at(10), aborted()),
        () => store.pinRequests.finishPinRequest(request.id, 'worker', { state: 'pinned', dagSize: 42 }, aborted()),
        () => store.pinRequests.releasePinRequest(request.id, 'worker', aborted()),
        () => store.pinRequests.deletePinRequest('tenant-a', request.id, aborted()),
        () => store.pinRequests.countPinRequests('tenant-a', {}, aborted()),
        () => store.pinRequests.replacePinRequest(request.id, newRequest(), aborted()),
      ]
      for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'ABORTED' })
      expect(await store.pinRequests.getPinRequest('tenant-a', request.id)).toBeUndefined()
    })
  })
}
