import {
  type CallOptions,
  PinfoldError,
  throwIfAborted,
  type UploadCompletionLease,
  type UploadSessionRecord,
  type UploadSessionRecordStore,
} from '@pinfold/interface'

/** Resumable upload sessions in a private Map; each method's checks and writes run without an await between them. */
export function memoryUploadSessionRecords(): UploadSessionRecordStore {
  const sessions = new Map<string, UploadSessionRecord>()
  /** The completion claims held, by session id; an entry leaves with its session. */
  const completing = new Map<string, UploadCompletionLease>()
  const heldBy = (id: string, owner: string) => sessions.has(id) && completing.get(id)?.owner === owner
  const copy = (s: UploadSessionRecord): UploadSessionRecord => structuredClone(s)
  return {
    async createUploadSession(session, options?: CallOptions) {
      throwIfAborted(options?.signal)
      if (sessions.has(session.id)) throw new PinfoldError('CONFLICT', `upload session ${session.id} already exists`)
      sessions.set(session.id, copy(session))
    },

    async getUploadSession(id, options) {
      throwIfAborted(options?.signal)
      const session = sessions.get(id)
      return session && copy(session)
    },

    async advanceUploadSession(id, expectedOffset, advance, options) {
      throwIfAborted(options?.signal)
      const session = sessions.get(id)
      if (!session || session.offset !== expectedOffset) return undefined
      session.offset = advance.offset
      session.parts.push(advance.part)
      session.expiresAt = new Date(advance.expiresAt)
      if (advance.staged) session.staged = { ...advance.staged }
      if (session.offset === session.length) {
        const { owner, expiresAt } = advance.completion
        completing.set(id, { owner, expiresAt: new Date(expiresAt) })
      }
      return copy(session)
    },

    async claimUploadCompletion(id, owner, now, leaseMs, options) {
      throwIfAborted(options?.signal)
      const held = completing.get(id)
      if (!sessions.has(id) || (held && held.expiresAt.getTime() > now.getTime())) return 'already'
      completing.set(id, { owner, expiresAt: new Date(now.getTime() + leaseMs) })
      return 'claimed'
    },

    async renewUploadCompletion(id, owner, until, options) {
      throwIfAborted(options?.signal)
      if (!heldBy(id, owner)) return false
      completing.set(id, { owner, expiresAt: new Date(until) })
      return true
    },

    async releaseUploadCompletion(id, owner, options) {
      throwIfAborted(options?.signal)
      if (!heldBy(id, owner)) return false
      completing.delete(id)
      return true
    },

    async deleteUploadSession(id, options) {
      throwIfAborted(options?.signal)
      const session = sessions.get(id)
      if (!session) return undefined
      sessions.delete(id)
      completing.delete(id)
      return copy(session)
    },

    async listExpiredUploadSessions(now, limit, options) {
      throwIfAborted(options?.signal)
      return [...sessions.values()]
        .filter((s) => s.expiresAt.getTime() <= now.getTime())
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
        .slice(0, limit)
        .map(copy)
    },
  }
}
