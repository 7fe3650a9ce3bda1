import { randomUUID } from 'node:crypto'
import type { RecordStore, UploadSessionRecord } from '@pinfold/interface'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
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

/** The UploadSessionRecordStore contract (resumable uploads); sessions are addressed by id alone. */
export function describeUploadSessionRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`UploadSessionRecordStore conformance: ${name}`, () => {
    let h: RecordStoreHarness
    let store: RecordStore
    beforeEach(async () => {
      h = await create()
      store = h.store
    })
    afterEach(async () => {
      await h.close?.()
    })

    it('createUploadSession - stores the session exactly as given', async () => {
      const session = newSession()
      await store.createUploadSession(session)
      expect(await store.getUploadSession(session.id)).toEqual(session)
      const bare = newSession({ mimeType: null, constraints: null, options: {}, staged: null })
      await store.createUploadSession(bare)
      expect(await store.getUploadSession(bare.id)).toEqual(bare)
    })

    it('createUploadSession - reusing an id is a CONFLICT and keeps the first session', async () => {
      const session = newSession()
      await store.createUploadSession(session)
      await expect(store.createUploadSession(newSession({ id: session.id, length: 5 }))).rejects.toMatchObject({
        code: 'CONFLICT',
      })
      expect((await store.getUploadSession(session.id))?.length).toBe(100)
    })

    it('getUploadSession - an unknown id is undefined', async () => {
      expect(await store.getUploadSession(randomUUID())).toBeUndefined()
    })

    it('advanceUploadSession - moves the offset, appends the part and sets the expiry when the offset matches', async () => {
      const session = newSession()
      await store.createUploadSession(session)
      const first = await store.advanceUploadSession(session.id, 0, { offset: 40, part: 'tus/p0', expiresAt: at(200) })
      expect(first).toEqual({ ...session, offset: 40, parts: ['tus/p0'], expiresAt: at(200) })
      const second = await store.advanceUploadSession(session.id, 40, {
        offset: 100,
        part: 'tus/p40',
        expiresAt: at(300),
      })
      expect(second?.parts).toEqual(['tus/p0', 'tus/p40'])
      expect(await store.getUploadSession(session.id)).toEqual(second)
    })

    it("advanceUploadSession - a given staged write replaces the session's with the offset; none keeps it", async () => {
      const session = newSession()
      await store.createUploadSession(session)
      const staged = { ...session.staged!, dag: '{"levels":[{"cids":"AXA=","tsizes":[1],"fileSizes":[1]}]}' }
      const first = await store.advanceUploadSession(session.id, 0, {
        offset: 40,
        part: 'a',
        expiresAt: at(200),
        staged,
      })
      expect(first?.staged).toEqual(staged)
      const second = await store.advanceUploadSession(session.id, 40, { offset: 50, part: 'b', expiresAt: at(200) })
      expect(second?.staged).toEqual(staged)
      // a stale advance changes the staged write no more than the offset
      const stale = { ...staged, dag: 'stale' }
      expect(
        await store.advanceUploadSession(session.id, 40, { offset: 60, part: 'c', expiresAt: at(200), staged: stale }),
      ).toBeUndefined()
      expect((await store.getUploadSession(session.id))?.staged).toEqual(staged)
    })

    it('advanceUploadSession - a stale offset or an unknown session changes nothing', async () => {
      const session = newSession()
      await store.createUploadSession(session)
      await store.advanceUploadSession(session.id, 0, { offset: 40, part: 'tus/p0', expiresAt: at(200) })
      expect(
        await store.advanceUploadSession(session.id, 0, { offset: 50, part: 'tus/late', expiresAt: at(300) }),
      ).toBeUndefined()
      expect(
        await store.advanceUploadSession(randomUUID(), 0, { offset: 50, part: 'tus/x', expiresAt: at(300) }),
      ).toBeUndefined()
      const stored = await store.getUploadSession(session.id)
      expect(stored).toMatchObject({ offset: 40, parts: ['tus/p0'], expiresAt: at(200) })
    })

    it('advanceUploadSession - of concurrent advances at one offset exactly one succeeds', async () => {
      const session = newSession()
      await store.createUploadSession(session)
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.advanceUploadSession(session.id, 0, { offset: 10 + i, part: `tus/p${i}`, expiresAt: at(200) }),
        ),
      )
      const winners = results.filter((r) => r !== undefined)
      expect(winners).toHaveLength(1)
      const stored = await store.getUploadSession(session.id)
      expect(stored?.parts).toEqual(winners[0]!.parts)
      expect(stored?.parts).toHaveLength(1)
      expect(stored?.offset).toBe(winners[0]!.offset)
    })

    it('deleteUploadSession - returns the session once; concurrent deleters get it exactly once', async () => {
      const session = newSession({ parts: ['tus/a'], offset: 10 })
      await store.createUploadSession(session)
      const results = await Promise.all(Array.from({ length: 5 }, () => store.deleteUploadSession(session.id)))
      expect(results.filter((r) => r !== undefined)).toEqual([session])
      expect(await store.getUploadSession(session.id)).toBeUndefined()
      expect(
        await store.advanceUploadSession(session.id, 10, { offset: 20, part: 'tus/b', expiresAt: at(200) }),
      ).toBeUndefined()
    })

    it('claimUploadCompletion - of concurrent claims exactly one is claimed; the others find it already claimed', async () => {
      const session = newSession({ offset: 100, parts: ['tus/p0'] })
      await store.createUploadSession(session)
      const results = await Promise.all(Array.from({ length: 8 }, () => store.claimUploadCompletion(session.id)))
      expect(results.filter((r) => r === 'claimed')).toHaveLength(1)
      expect(results.filter((r) => r === 'already')).toHaveLength(7)
      expect(await store.claimUploadCompletion(session.id)).toBe('already')
      // the claim is not part of the session's fields
      expect(await store.getUploadSession(session.id)).toEqual(session)
    })

    it('advanceUploadSession - the advance that reaches the length takes the completion claim with it', async () => {
      const session = newSession({ offset: 0, parts: [] })
      await store.createUploadSession(session)
      const part = await store.advanceUploadSession(session.id, 0, { offset: 10, part: 'tus/a', expiresAt: at(200) })
      expect(part?.offset).toBe(10)
      expect(await store.claimUploadCompletion(session.id)).toBe('claimed') // part-way: the claim was free
      await store.releaseUploadCompletion(session.id)
      const last = await store.advanceUploadSession(session.id, 10, {
        offset: session.length,
        part: 'tus/b',
        expiresAt: at(200),
      })
      expect(last?.offset).toBe(session.length)
      // a racing bodiless PATCH at the final offset finds the claim held by the advance
      expect(await store.claimUploadCompletion(session.id)).toBe('already')
      await store.releaseUploadCompletion(session.id) // the completion failed: a retry may claim it
      expect(await store.claimUploadCompletion(session.id)).toBe('claimed')
    })

    it('releaseUploadCompletion - a released claim is claimed again by exactly one caller', async () => {
      const session = newSession({ offset: 100 })
      await store.createUploadSession(session)
      expect(await store.claimUploadCompletion(session.id)).toBe('claimed')
      await store.releaseUploadCompletion(session.id)
      const results = await Promise.all(Array.from({ length: 5 }, () => store.claimUploadCompletion(session.id)))
      expect(results.filter((r) => r === 'claimed')).toHaveLength(1)
      // releasing twice, or a session never claimed or unknown, is no error
      await store.releaseUploadCompletion(session.id)
      await store.releaseUploadCompletion(session.id)
      await store.releaseUploadCompletion(randomUUID())
      expect(await store.claimUploadCompletion(session.id)).toBe('claimed')
    })

    it('claimUploadCompletion - an unknown or deleted session is already claimed; claims are per session', async () => {
      expect(await store.claimUploadCompletion(randomUUID())).toBe('already')
      const one = newSession({ offset: 100 })
      const other = newSession({ offset: 100 })
      await store.createUploadSession(one)
      await store.createUploadSession(other)
      expect(await store.claimUploadCompletion(one.id)).toBe('claimed')
      expect(await store.claimUploadCompletion(other.id)).toBe('claimed')
      expect(await store.deleteUploadSession(one.id)).toEqual(one)
      expect(await store.claimUploadCompletion(one.id)).toBe('already')
      // a new session under a reused id starts unclaimed
      await store.createUploadSession(one)
      expect(await store.claimUploadCompletion(one.id)).toBe('claimed')
    })

    it('listExpiredUploadSessions - lists sessions expired at or before now, oldest expiry first, up to the limit', async () => {
      const late = newSession({ expiresAt: at(30) })
      const early = newSession({ expiresAt: at(10) })
      const exact = newSession({ expiresAt: at(50) })
      const alive = newSession({ expiresAt: at(51) })
      for (const s of [late, early, exact, alive]) await store.createUploadSession(s)
      expect((await store.listExpiredUploadSessions(at(50), 10)).map((s) => s.id)).toEqual([
        early.id,
        late.id,
        exact.id,
      ])
      expect((await store.listExpiredUploadSessions(at(50), 2)).map((s) => s.id)).toEqual([early.id, late.id])
      expect(await store.listExpiredUploadSessions(at(5), 10)).toEqual([])
    })

    it('every method - an aborted signal rejects with ABORTED and changes nothing', async () => {
      const session = newSession()
      await store.createUploadSession(session)
      const calls: [string, (o: { signal: AbortSignal }) => Promise<unknown>][] = [
        ['createUploadSession', (o) => store.createUploadSession(newSession(), o)],
        ['getUploadSession', (o) => store.getUploadSession(session.id, o)],
        [
          'advanceUploadSession',
          (o) => store.advanceUploadSession(session.id, 0, { offset: 1, part: 'x', expiresAt: at(9) }, o),
        ],
        ['claimUploadCompletion', (o) => store.claimUploadCompletion(session.id, o)],
        ['releaseUploadCompletion', (o) => store.releaseUploadCompletion(session.id, o)],
        ['deleteUploadSession', (o) => store.deleteUploadSession(session.id, o)],
        ['listExpiredUploadSessions', (o) => store.listExpiredUploadSessions(at(999), 10, o)],
      ]
      for (const [method, call] of calls) {
        await expect(call(aborted()), method).rejects.toMatchObject({ code: 'ABORTED' })
      }
      expect(await store.getUploadSession(session.id)).toEqual(session)
      expect(await store.listExpiredUploadSessions(at(999), 10)).toHaveLength(1)
      expect(await store.claimUploadCompletion(session.id)).toBe('claimed')
    })
  })
}
