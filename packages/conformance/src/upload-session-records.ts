import { randomUUID } from 'node:crypto'
import type { RecordStore, UploadSessionRecord } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second))

function newSession(fields: Partial<UploadSessionRecord> = {}): UploadSessionRecord {
  return {
    id: randomUUID(),
    tokenHash: 'ab'.repeat(32),
    tenantId: 'tenant-a',
    userId: 'user-1',
    length: 100,
    offset: 0,
    parts: [],
    fileName: 'big.bin',
    mimeType: 'application/octet-stream',
    options: { network: 'public', keyvalues: { env: 'prod' }, cidVersion: 'v0', expiresAtMs: 1_900_000_000_000 },
    constraints: { maxBytes: 1000, allowMimeTypes: ['image/*'], fixed: { groupId: null, name: 'fixed' } },
    staged: { key: 'blobs/staged-1', handle: 'upload-id/with+odd=chars' },
    createdAt: at(0),
    expiresAt: at(100),
    ...fields,
  }
}

const aborted = () => ({ signal: AbortSignal.abort() })

/** Completion leases in these tests run 10 seconds. */
const LEASE_MS = 10_000
/** A completion claim a test's advances carry; taken only by an advance that reaches the length. */
const lease = (owner = 'advancer') => ({ owner, expiresAt: at(10) })

/** The UploadSessionRecordStore contract (resumable uploads); sessions are addressed by id alone. */
export function describeUploadSessionRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`UploadSessionRecordStore conformance: ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    it('createUploadSession - stores the session exactly as given', async () => {
      const session = newSession()
      await store.uploadSessions.createUploadSession(session)
      expect(await store.uploadSessions.getUploadSession(session.id)).toEqual(session)
      const bare = newSession({ mimeType: null, constraints: null, options: {}, staged: null })
      await store.uploadSessions.createUploadSession(bare)
      expect(await store.uploadSessions.getUploadSession(bare.id)).toEqual(bare)
    })

    it('createUploadSession - reusing an id is a CONFLICT and keeps the first session', async () => {
      const session = newSession()
      await store.uploadSessions.createUploadSession(session)
      await expect(
        store.uploadSessions.createUploadSession(newSession({ id: session.id, length: 5 })),
      ).rejects.toMatchObject({
        code: 'CONFLICT',
      })
      expect((await store.uploadSessions.getUploadSession(session.id))?.length).toBe(100)
    })

    it('getUploadSession - an unknown id is undefined', async () => {
      expect(await store.uploadSessions.getUploadSession(randomUUID())).toBeUndefined()
    })

    it('advanceUploadSession - moves the offset, appends the part and sets the expiry when the offset matches', async () => {
      const session = newSession()
      await store.uploadSessions.createUploadSession(session)
      const first = await store.uploadSessions.advanceUploadSession(session.id, 0, {
        offset: 40,
        part: 'tus/p0',
        expiresAt: at(200),
        completion: lease(),
      })
      expect(first).toEqual({ ...session, offset: 40, parts: ['tus/p0'], expiresAt: at(200) })
      const second = await store.uploadSessions.advanceUploadSession(session.id, 40, {
        offset: 100,
        part: 'tus/p40',
        expiresAt: at(300),
        completion: lease(),
      })
      expect(second?.parts).toEqual(['tus/p0', 'tus/p40'])
      expect(await store.uploadSessions.getUploadSession(session.id)).toEqual(second)
    })

    it("advanceUploadSession - a given staged write replaces the session's with the offset; none keeps it", async () => {
      const session = newSession()
      await store.uploadSessions.createUploadSession(session)
      const staged = { ...session.staged!, dag: '{"levels":[{"cids":"AXA=","tsizes":[1],"fileSizes":[1]}]}' }
      const first = await store.uploadSessions.advanceUploadSession(session.id, 0, {
        offset: 40,
        part: 'a',
        expiresAt: at(200),
        staged,
        completion: lease(),
      })
      expect(first?.staged).toEqual(staged)
      const second = await store.uploadSessions.advanceUploadSession(session.id, 40, {
        offset: 50,
        part: 'b',
        expiresAt: at(200),
        completion: lease(),
      })
      expect(second?.staged).toEqual(staged)
      // a stale advance changes the staged write no more than the offset
      const stale = { ...staged, dag: 'stale' }
      expect(
        await store.uploadSessions.advanceUploadSession(session.id, 40, {
          offset: 60,
          part: 'c',
          expiresAt: at(200),
          staged: stale,
          completion: lease(),
        }),
      ).toBeUndefined()
      expect((await store.uploadSessions.getUploadSession(session.id))?.staged).toEqual(staged)
    })

    it('advanceUploadSession - a stale offset or an unknown session changes nothing', async () => {
      const session = newSession()
      await store.uploadSessions.createUploadSession(session)
      await store.uploadSessions.advanceUploadSession(session.id, 0, {
        offset: 40,
        part: 'tus/p0',
        expiresAt: at(200),
        completion: lease(),
      })
      expect(
        await store.uploadSessions.advanceUploadSession(session.id, 0, {
          offset: 50,
          part: 'tus/late',
          expiresAt: at(300),
          completion: lease(),
        }),
      ).toBeUndefined()
      expect(
        await store.uploadSessions.advanceUploadSession(randomUUID(), 0, {
          offset: 50,
          part: 'tus/x',
          expiresAt: at(300),
          completion: lease(),
        }),
      ).toBeUndefined()
      const stored = await store.uploadSessions.getUploadSession(session.id)
      expect(stored).toMatchObject({ offset: 40, parts: ['tus/p0'], expiresAt: at(200) })
    })

    it('advanceUploadSession - of concurrent advances at one offset exactly one succeeds', async () => {
      const session = newSession()
      await store.uploadSessions.createUploadSession(session)
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.uploadSessions.advanceUploadSession(session.id, 0, {
            offset: 10 + i,
            part: `tus/p${i}`,
            expiresAt: at(200),
            completion: lease(),
          }),
        ),
      )
      const winners = results.filter((r) => r !== undefined)
      expect(winners).toHaveLength(1)
      const stored = await store.uploadSessions.getUploadSession(session.id)
      expect(stored?.parts).toEqual(winners[0]!.parts)
      expect(stored?.parts).toHaveLength(1)
      expect(stored?.offset).toBe(winners[0]!.offset)
    })

    it('deleteUploadSession - returns the session once; concurrent deleters get it exactly once', async () => {
      const session = newSession({ parts: ['tus/a'], offset: 10 })
      await store.uploadSessions.createUploadSession(session)
      const results = await Promise.all(
        Array.from({ length: 5 }, () => store.uploadSessions.deleteUploadSession(session.id)),
      )
      expect(results.filter((r) => r !== undefined)).toEqual([session])
      expect(await store.uploadSessions.getUploadSession(session.id)).toBeUndefined()
      expect(
        await store.uploadSessions.advanceUploadSession(session.id, 10, {
          offset: 20,
          part: 'tus/b',
          expiresAt: at(200),
          completion: lease(),
        }),
      ).toBeUndefined()
    })

    it('claimUploadCompletion - of concurrent claimers exactly one is claimed; the others find it already claimed', async () => {
      const session = newSession({ offset: 100, parts: ['tus/p0'] })
      await store.uploadSessions.createUploadSession(session)
      const owners = Array.from({ length: 8 }, (_, i) => `owner-${i}`)
      const results = await Promise.all(
        owners.map((owner) => store.uploadSessions.claimUploadCompletion(session.id, owner, at(0), LEASE_MS)),
      )
      expect(results.filter((r) => r === 'claimed')).toHaveLength(1)
      expect(results.filter((r) => r === 'already')).toHaveLength(7)
      const winner = owners[results.indexOf('claimed')]!
      // the winner, and only it, holds the claim
      for (const owner of owners) {
        expect(await store.uploadSessions.renewUploadCompletion(session.id, owner, at(5)), owner).toBe(owner === winner)
      }
      // its owner claiming again while the lease runs is no exception
      expect(await store.uploadSessions.claimUploadCompletion(session.id, winner, at(1), LEASE_MS)).toBe('already')
      // the claim is not part of the session's fields
      expect(await store.uploadSessions.getUploadSession(session.id)).toEqual(session)
    })

    it('claimUploadCompletion - a lease is taken over only once it has run out, by exactly one of the claimers', async () => {
      const session = newSession({ offset: 100 })
      await store.uploadSessions.createUploadSession(session)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'dead', at(0), LEASE_MS)).toBe('claimed')
      // the lease runs until at(10): a moment before, nobody takes it
      const before = new Date(at(10).getTime() - 1)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'early', before, LEASE_MS)).toBe('already')
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          store.uploadSessions.claimUploadCompletion(session.id, `late-${i}`, at(10), LEASE_MS),
        ),
      )
      expect(results.filter((r) => r === 'claimed')).toHaveLength(1)
      const taker = `late-${results.indexOf('claimed')}`
      // the new lease runs from the takeover: until at(20)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'other', at(19), LEASE_MS)).toBe('already')
      // the dead owner lost it: it can neither renew nor release it
      expect(await store.uploadSessions.renewUploadCompletion(session.id, 'dead', at(100))).toBe(false)
      expect(await store.uploadSessions.releaseUploadCompletion(session.id, 'dead')).toBe(false)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'other', at(19), LEASE_MS)).toBe('already')
      expect(await store.uploadSessions.releaseUploadCompletion(session.id, taker)).toBe(true)
    })

    it('renewUploadCompletion - only the owner extends its lease; one that ran out but was not taken over is still its own', async () => {
      const session = newSession({ offset: 100 })
      await store.uploadSessions.createUploadSession(session)
      expect(await store.uploadSessions.renewUploadCompletion(session.id, 'a', at(50))).toBe(false) // nobody holds it
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'a', at(0), LEASE_MS)).toBe('claimed')
      expect(await store.uploadSessions.renewUploadCompletion(session.id, 'b', at(50))).toBe(false)
      // b's failed renewal changed nothing: the lease still ends at(10)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'c', at(10), LEASE_MS)).toBe('claimed')
      expect(await store.uploadSessions.renewUploadCompletion(session.id, 'c', at(30))).toBe(true)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'd', at(29), LEASE_MS)).toBe('already')
      // c's lease ran out at(30), nobody took it: c renews it and keeps it
      expect(await store.uploadSessions.renewUploadCompletion(session.id, 'c', at(60))).toBe(true)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'd', at(45), LEASE_MS)).toBe('already')
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'd', at(60), LEASE_MS)).toBe('claimed')
      expect(await store.uploadSessions.renewUploadCompletion(randomUUID(), 'd', at(99))).toBe(false)
    })

    it('releaseUploadCompletion - only the owner gives the claim back; then exactly one claimer gets it at once', async () => {
      const session = newSession({ offset: 100 })
      await store.uploadSessions.createUploadSession(session)
      expect(await store.uploadSessions.releaseUploadCompletion(session.id, 'a')).toBe(false) // nobody holds it
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'a', at(0), LEASE_MS)).toBe('claimed')
      expect(await store.uploadSessions.releaseUploadCompletion(session.id, 'b')).toBe(false)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'b', at(1), LEASE_MS)).toBe('already')
      expect(await store.uploadSessions.releaseUploadCompletion(session.id, 'a')).toBe(true)
      expect(await store.uploadSessions.releaseUploadCompletion(session.id, 'a')).toBe(false) // twice
      // released: claimable before any lease could have run out
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          store.uploadSessions.claimUploadCompletion(session.id, `n-${i}`, at(1), LEASE_MS),
        ),
      )
      expect(results.filter((r) => r === 'claimed')).toHaveLength(1)
      expect(await store.uploadSessions.releaseUploadCompletion(randomUUID(), 'a')).toBe(false)
    })

    it('advanceUploadSession - the advance that reaches the length takes the completion claim for its owner', async () => {
      const session = newSession({ offset: 0, parts: [] })
      await store.uploadSessions.createUploadSession(session)
      const part = await store.uploadSessions.advanceUploadSession(session.id, 0, {
        offset: 10,
        part: 'tus/a',
        expiresAt: at(200),
        completion: { owner: 'first', expiresAt: at(10) },
      })
      expect(part?.offset).toBe(10)
      // part-way: the advance took no claim
      expect(await store.uploadSessions.renewUploadCompletion(session.id, 'first', at(10))).toBe(false)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'early', at(0), LEASE_MS)).toBe('claimed')
      expect(await store.uploadSessions.releaseUploadCompletion(session.id, 'early')).toBe(true)
      const last = await store.uploadSessions.advanceUploadSession(session.id, 10, {
        offset: session.length,
        part: 'tus/b',
        expiresAt: at(200),
        completion: { owner: 'last', expiresAt: at(20) },
      })
      expect(last?.offset).toBe(session.length)
      // a racing bodiless PATCH at the final offset finds the claim held by the advance, until at(20)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'racer', at(19), LEASE_MS)).toBe('already')
      expect(await store.uploadSessions.renewUploadCompletion(session.id, 'last', at(40))).toBe(true)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'racer', at(39), LEASE_MS)).toBe('already')
      expect(await store.uploadSessions.releaseUploadCompletion(session.id, 'last')).toBe(true) // the completion failed
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'retry', at(21), LEASE_MS)).toBe('claimed')
    })

    it('advanceUploadSession - a claim taken part-way is kept by the advances before the last', async () => {
      const session = newSession({ offset: 0, parts: [] })
      await store.uploadSessions.createUploadSession(session)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'held', at(0), LEASE_MS)).toBe('claimed')
      await store.uploadSessions.advanceUploadSession(session.id, 0, {
        offset: 10,
        part: 'a',
        expiresAt: at(200),
        completion: lease('x'),
      })
      expect(await store.uploadSessions.renewUploadCompletion(session.id, 'held', at(5))).toBe(true)
      expect(await store.uploadSessions.renewUploadCompletion(session.id, 'x', at(5))).toBe(false)
    })

    it('claimUploadCompletion - an unknown or deleted session is already claimed; claims are per session', async () => {
      expect(await store.uploadSessions.claimUploadCompletion(randomUUID(), 'a', at(0), LEASE_MS)).toBe('already')
      const one = newSession({ offset: 100 })
      const other = newSession({ offset: 100 })
      await store.uploadSessions.createUploadSession(one)
      await store.uploadSessions.createUploadSession(other)
      expect(await store.uploadSessions.claimUploadCompletion(one.id, 'a', at(0), LEASE_MS)).toBe('claimed')
      expect(await store.uploadSessions.claimUploadCompletion(other.id, 'b', at(0), LEASE_MS)).toBe('claimed')
      expect(await store.uploadSessions.deleteUploadSession(one.id)).toEqual(one)
      expect(await store.uploadSessions.claimUploadCompletion(one.id, 'c', at(99), LEASE_MS)).toBe('already')
      expect(await store.uploadSessions.renewUploadCompletion(one.id, 'a', at(5))).toBe(false)
      // a new session under a reused id starts unclaimed
      await store.uploadSessions.createUploadSession(one)
      expect(await store.uploadSessions.claimUploadCompletion(one.id, 'd', at(0), LEASE_MS)).toBe('claimed')
    })

    it('listExpiredUploadSessions - lists sessions expired at or before now, oldest expiry first, up to the limit', async () => {
      const late = newSession({ expiresAt: at(30) })
      const early = newSession({ expiresAt: at(10) })
      const exact = newSession({ expiresAt: at(50) })
      const alive = newSession({ expiresAt: at(51) })
      for (const s of [late, early, exact, alive]) await store.uploadSessions.createUploadSession(s)
      expect((await store.uploadSessions.listExpiredUploadSessions(at(50), 10)).map((s) => s.id)).toEqual([
        early.id,
        late.id,
        exact.id,
      ])
      expect((await store.uploadSessions.listExpiredUploadSessions(at(50), 2)).map((s) => s.id)).toEqual([
        early.id,
        late.id,
      ])
      expect(await store.uploadSessions.listExpiredUploadSessions(at(5), 10)).toEqual([])
    })

    it('every method - an aborted signal rejects with ABORTED and changes nothing', async () => {
      const session = newSession()
      await store.uploadSessions.createUploadSession(session)
      const calls: [string, (o: { signal: AbortSignal }) => Promise<unknown>][] = [
        ['createUploadSession', (o) => store.uploadSessions.createUploadSession(newSession(), o)],
        ['getUploadSession', (o) => store.uploadSessions.getUploadSession(session.id, o)],
        [
          'advanceUploadSession',
          (o) =>
            store.uploadSessions.advanceUploadSession(
              session.id,
              0,
              { offset: 1, part: 'x', expiresAt: at(9), completion: lease() },
              o,
            ),
        ],
        [
          'claimUploadCompletion',
          (o) => store.uploadSessions.claimUploadCompletion(session.id, 'a', at(0), LEASE_MS, o),
        ],
        ['renewUploadCompletion', (o) => store.uploadSessions.renewUploadCompletion(session.id, 'a', at(5), o)],
        ['releaseUploadCompletion', (o) => store.uploadSessions.releaseUploadCompletion(session.id, 'a', o)],
        ['deleteUploadSession', (o) => store.uploadSessions.deleteUploadSession(session.id, o)],
        ['listExpiredUploadSessions', (o) => store.uploadSessions.listExpiredUploadSessions(at(999), 10, o)],
      ]
      for (const [method, call] of calls) {
        await expect(call(aborted()), method).rejects.toMatchObject({ code: 'ABORTED' })
      }
      expect(await store.uploadSessions.getUploadSession(session.id)).toEqual(session)
      expect(await store.uploadSessions.listExpiredUploadSessions(at(999), 10)).toHaveLength(1)
      expect(await store.uploadSessions.claimUploadCompletion(session.id, 'a', at(0), LEASE_MS)).toBe('claimed')
    })
  })
}
