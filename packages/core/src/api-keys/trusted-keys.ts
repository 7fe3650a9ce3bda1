import type { ApiKeyRecord, ChangeFeed } from '@pinfold/interface'

/**
 * How long this process trusts what it last read of an unlimited key without asking the record
 * store again. A revocation is announced on the change feed, so every instance sharing the store
 * forgets its trusted keys at once; this bounds only a lost announcement. Keys with `maxUses` are
 * checked (and counted) in the record store on every use.
 */
export const API_KEY_CACHE_MS = 5_000
const CACHE_MAX = 1024

/** Unlimited keys this process read lately, shared by the key operations and the operator's revocations. */
export interface TrustedKeys {
  /** The key as last read, while it is trusted. */
  get(keyId: string, tenantId: string, now: number): ApiKeyRecord | undefined
  trust(key: ApiKeyRecord, now: number): void
  /** After any revocation: forgets every trusted key here and, through the feed, on every instance. */
  revoked(): void
}

export function createTrustedKeys(changes: ChangeFeed | undefined): TrustedKeys {
  const trusted = new Map<string, { key: ApiKeyRecord; until: number }>()
  changes?.subscribe((change) => {
    if (change === 'api-keys' || change === 'lost') trusted.clear()
  })
  return {
    get(keyId, tenantId, now) {
      const cached = trusted.get(keyId)
      if (cached && cached.until > now && cached.key.tenantId === tenantId) return cached.key
      trusted.delete(keyId)
      return undefined
    },
    trust(key, now) {
      if (trusted.size >= CACHE_MAX) trusted.delete(trusted.keys().next().value!)
      trusted.set(key.id, { key, until: now + API_KEY_CACHE_MS })
    },
    revoked() {
      // revoked keys' children go with them, and any of them may be trusted here
      trusted.clear()
      changes?.publish('api-keys').catch(() => {})
    },
  }
}
