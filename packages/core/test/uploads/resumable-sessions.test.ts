import { describe, expect, it } from 'vitest'
import type { BlobStore, Clock, RecordStore, UploadSessionAdvance, UploadSessionRecord } from '../../src/index.js'
import { createFileService } from '../../src/index.js'

/** Just enough of the ports for resumable sessions: sessions and blobs in Maps. */
function fakeStores() {
  const sessions = new Map<string, UploadSessionRecord>()
  const claimed = new Map<string, { owner: string; expiresAt: Date }>()
  const blobs = new Map<string, Uint8Array>()
  const records = {
    // no limits set: creation reads them before any byte (quotas/admission.ts)
    accounts: { getLimits: async () => ({}) },
    // every tenant active: a session's calls ask the registry whether its tenant is suspended
    tenants: { getTenant: async (id: string) => ({ id, createdAt: new Date(0), origin: 'token', suspension: null }) },
    uploadSessions: {
      async createUploadSession(s: UploadSessionRecord) {
        sessions.set(s.id, structuredClone(s))
      },
      async getUploadSession(id: string) {
        const s = sessions.get(id)
        return s && structuredClone(s)
      },
      async advanceUploadSession(id: string, expected: number, a: UploadSessionAdvance) {
        const s = sessions.get(id)
        if (!s || s.offset !== expected) return undefined
        Object.assign(s, { offset: a.offset, parts: [...s.parts, a.part], expiresAt: a.expiresAt })
        if (s.offset === s.length) claimed.set(id, a.completion)
        return structuredClone(s)
      },
      async claimUploadCompletion(id: string, owner: string, now: Date, leaseMs: number) {
        const held = claimed.get(id)
        if (!sessions.has(id) || (held && held.expiresAt > now)) return 'already'
        claimed.set(id, { owner, expiresAt: new Date(now.getTime() + leaseMs) })
        return 'claimed'
      },
      async renewUploadCompletion(id: string, owner: string, until: Date) {
        if (claimed.get(id)?.owner !== owner) return false
        claimed.set(id, { owner, expiresAt: until })
        return true
      },
      async releaseUploadCompletion(id: string, owner: string) {
        return claimed.get(id)?.owner === owner && claimed.delete(id)
      },
      async deleteUploadSession(id: string) {
        const s = sessions.get(id)
        sessions.delete(id)
        claimed.delete(id)
        return s
      },
      async listExpiredUploadSessions(now: Date, limit: number) {
        return [...sessions.values()].filter((s) => s.expiresAt <= now).slice(0, limit)
      },
    },
  } as unknown as RecordStore
  const blobStore: BlobStore = {
    async put(key, source) {
      const chunks: Uint8Array[] = []
      for await (const chunk of source) chunks.push(chunk)
      const bytes = Buffer.concat(chunks)
      blobs.set(key, bytes)
      return { size: bytes.length }
    },
    async get(key) {
      const bytes = blobs.get(key)
      return (async function* () {
        if (bytes) yield bytes
      })()
    },
    async head(key) {
      const bytes = blobs.get(key)
      return bytes && { key, size: bytes.length }
    },
    async delete(key) {
      blobs.delete(key)
    },
  }
  return { records, blobStore, sessions, blobs }
}

const body = (bytes: Uint8Array) =>
  (async function* () {
    yield bytes
  })()

describe('resumable upload sessions', () => {
  const actor = { tenantId: 'acme', userId: 'alice' }

  it('sweepExpiredSessions - removes sessions past their expiry with their parts, and keeps live ones', async () => {
    let now = new Date('2026-01-01T00:00:00Z')
    const clock: Clock = { now: () => now }
    const { records, blobStore, sessions, blobs } = fakeStores()
    const service = createFileService({ records, blobs: blobStore, clock })
    const abandoned = await service.uploads.create(actor, { length: 100, options: {} })
    await service.uploads.append(abandoned.id, abandoned.token, 0, body(new Uint8Array(40)))
    expect(blobs.size).toBe(1)
    now = new Date('2026-01-01T20:00:00Z')
    const live = await service.uploads.create(actor, { length: 100, options: {} })
    await service.uploads.append(live.id, live.token, 0, body(new Uint8Array(10)))

    expect(await service.uploads.sweepExpiredSessions(new Date('2026-01-01T23:59:00Z'))).toBe(0)
    now = new Date('2026-01-02T00:00:01Z') // 24 h after the abandoned session's last PATCH
    expect(await service.uploads.sweepExpiredSessions()).toBe(1)
    expect([...sessions.keys()]).toEqual([live.id])
    expect(blobs.size).toBe(1)
    await expect(service.uploads.status(abandoned.id, abandoned.token)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await service.uploads.status(live.id, live.token)).offset).toBe(10)
  })

  it('status - an expired session is NOT_FOUND even before the sweep', async () => {
    let now = new Date('2026-01-01T00:00:00Z')
    const { records, blobStore } = fakeStores()
    const service = createFileService({ records, blobs: blobStore, clock: { now: () => now } })
    const session = await service.uploads.create(actor, { length: 5, options: {} })
    now = new Date('2026-01-03T00:00:00Z')
    await expect(service.uploads.status(session.id, session.token)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('create - Upload-Length above the limit is PAYLOAD_TOO_LARGE', async () => {
    const { records, blobStore } = fakeStores()
    const service = createFileService({ records, blobs: blobStore, maxUploadBytes: 10 })
    await expect(service.uploads.create(actor, { length: 11, options: {} })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    })
  })

  it('append - a wrong offset is a CONFLICT; a wrong token is NOT_FOUND', async () => {
    const { records, blobStore, blobs } = fakeStores()
    const service = createFileService({ records, blobs: blobStore })
    const session = await service.uploads.create(actor, { length: 10, options: {} })
    await expect(service.uploads.append(session.id, session.token, 3, body(new Uint8Array(2)))).rejects.toMatchObject({
      code: 'CONFLICT',
    })
    await expect(service.uploads.append(session.id, 'nope', 0, body(new Uint8Array(2)))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    expect(blobs.size).toBe(0)
  })
})
