import { type ApiKeyRecord, type ApiKeyRecordStore, PinfoldError, throwIfAborted } from '@pinfold/interface'

const copyKey = (key: ApiKeyRecord): ApiKeyRecord => ({
  ...key,
  scopes: [...key.scopes],
  permissions: structuredClone(key.permissions),
})

const exhausted = (key: ApiKeyRecord) => key.maxUses !== null && key.uses >= key.maxUses

/**
 * API keys in a Map. `useApiKey` checks and counts in one synchronous step after its first await,
 * so of concurrent uses exactly those with uses left are counted.
 */
export function memoryApiKeyRecords(): ApiKeyRecordStore {
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
      if (!found.revoked) {
        found.revoked = true
        found.updatedAt = at
      }
      return copyKey(found)
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
