import { type ApiKeyRecord, type ApiKeyRecordStore, PinfoldError, throwIfAborted } from '@pinfold/interface'
import type { MemoryState } from './memory-state.js'

const copyKey = (key: ApiKeyRecord): ApiKeyRecord => ({
  ...key,
  scopes: [...key.scopes],
  permissions: structuredClone(key.permissions),
})

const exhausted = (key: ApiKeyRecord) => key.maxUses !== null && key.uses >= key.maxUses

/**
 * The uses a new key takes from its limited parent (its whole `maxUses`), or `FORBIDDEN` when the
 * parent has not that many left; an unlimited parent gives any key and counts nothing.
 */
function parentSpends(parent: ApiKeyRecord, key: ApiKeyRecord): number {
  if (parent.maxUses === null) return 0
  const left = parent.maxUses - parent.uses
  if (key.maxUses === null || key.maxUses > left) throw usesLeftError(left)
  return key.maxUses
}

/** The refusal of a key asking for more uses than its parent has left. */
function usesLeftError(left: number): PinfoldError {
  return new PinfoldError(
    'FORBIDDEN',
    left === 0
      ? 'the key creating this key has no uses left to give'
      : `the key creating this key has ${left} uses left: the new key needs a maxUses of at most ${left}`,
  )
}

/**
 * API keys in a Map. Every method checks and writes in one synchronous step after its first
 * await: of concurrent uses exactly those with uses left are counted, a creation spends its
 * parent's uses in the step that checks them, and a revocation reaches every key created before it.
 */
export function memoryApiKeyRecords(state: MemoryState): ApiKeyRecordStore {
  const keys = new Map<string, ApiKeyRecord>()
  const tick = (options?: { signal?: AbortSignal | undefined }) => {
    throwIfAborted(options?.signal)
    return Promise.resolve()
  }
  const byPublicKey = (key: string) => [...keys.values()].find((k) => k.key === key)

  return {
    async createApiKey(key, options) {
      await tick(options)
      if (keys.has(key.id) || byPublicKey(key.key)) throw new PinfoldError('CONFLICT', 'this API key exists already')
      if (key.parentId !== null) {
        const parent = keys.get(key.parentId)
        if (!parent || parent.tenantId !== key.tenantId || parent.revoked) {
          throw new PinfoldError('FORBIDDEN', 'the key creating this key has been revoked')
        }
        const spent = parentSpends(parent, key)
        state.appendEvents(options?.events)
        parent.uses += spent
      } else state.appendEvents(options?.events)
      keys.set(key.id, copyKey(key))
      return copyKey(key)
    },

    async getApiKey(tenantId, id, options) {
      await tick(options)
      const key = keys.get(id)
      return key && key.tenantId === tenantId ? copyKey(key) : undefined
    },

    async findApiKey(key, options) {
      await tick(options)
      const found = byPublicKey(key)
      return found && copyKey(found)
    },

    async listApiKeys(tenantId, filter, page, options) {
      await tick(options)
      const name = filter.name?.toLowerCase()
      const matching = [...keys.values()]
        .filter(
          (k) =>
            k.tenantId === tenantId &&
            (name === undefined || k.name.toLowerCase().includes(name)) &&
            (filter.revoked === undefined || k.revoked === filter.revoked) &&
            (filter.limitedUse === undefined || (k.maxUses !== null) === filter.limitedUse) &&
            (filter.exhausted === undefined || exhausted(k) === filter.exhausted),
        )
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      return { items: matching.slice(page.offset, page.offset + page.limit).map(copyKey), total: matching.length }
    },

    async revokeApiKey(tenantId, key, at, options) {
      await tick(options)
      const found = byPublicKey(key)
      if (!found || found.tenantId !== tenantId) return undefined
      // revoking a revoked key changes nothing: nothing to record
      if (!found.revoked) state.appendEvents(options?.events)
      // the tree below it, level by level (a key is created after its parent: no cycles)
      let level = [found]
      while (level.length > 0) {
        for (const revoking of level) {
          if (!revoking.revoked) {
            revoking.revoked = true
            revoking.updatedAt = at
          }
        }
        const parents = new Set(level.map((k) => k.id))
        level = [...keys.values()].filter((k) => k.parentId !== null && parents.has(k.parentId))
      }
      return copyKey(found)
    },

    async revokeTenantApiKeys(tenantId, at, options) {
      await tick(options)
      let revoked = 0
      const revoking = [...keys.values()].some((key) => key.tenantId === tenantId && !key.revoked)
      if (revoking) state.appendEvents(options?.events)
      for (const key of keys.values()) {
        if (key.tenantId !== tenantId || key.revoked) continue
        key.revoked = true
        key.updatedAt = at
        revoked++
      }
      return revoked
    },

    async useApiKey(tenantId, id, options) {
      await tick(options)
      const key = keys.get(id)
      if (!key || key.tenantId !== tenantId) return { outcome: 'missing' }
      if (key.revoked) return { outcome: 'revoked', key: copyKey(key) }
      if (exhausted(key)) return { outcome: 'exhausted', key: copyKey(key) }
      if (key.maxUses !== null) key.uses += 1
      return { outcome: 'used', key: copyKey(key) }
    },
  }
}
