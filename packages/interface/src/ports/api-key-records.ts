/**
 * API keys: long-lived credentials a tenant creates, lists and revokes (Pinata's `/v3/pinata/keys`).
 * A key is presented either as the JWT issued with it (which names the key's `id`) or as its
 * public `key` and its secret (Pinata's legacy `pinata_api_key` / `pinata_secret_api_key`
 * headers). The record store is the truth about a key: whether it is revoked and how often it
 * was used, so every server sharing the store sees a revocation or the last allowed use.
 */

import type { CallOptions } from '../call-options.js'

export interface ApiKeyRecord {
  /** Opaque id chosen by core; the key's JWT carries it. */
  id: string
  tenantId: string
  /** The user who created the key. */
  userId: string
  name: string
  /** The public half (`pinata_api_key`); unique across tenants. */
  key: string
  /**
   * A hash of the secret (`pinata_secret_api_key`), never the secret itself: core hashes and
   * compares; a store only keeps the text.
   */
  secretHash: string
  /** Scopes the key grants, in Pinfold's names (`org:files:write`, …). */
  scopes: string[]
  /** The permissions as the client asked for them (Pinata's `{admin}` / `{endpoints}`), echoed in listings. */
  permissions: Record<string, unknown>
  /** Uses allowed in all; `null` for no limit. */
  maxUses: number | null
  /** Uses counted so far (only keys with a `maxUses` are counted). */
  uses: number
  revoked: boolean
  createdAt: Date
  updatedAt: Date
}

export interface ApiKeyFilter {
  /** Names containing this text, case-insensitively. */
  name?: string | undefined
  revoked?: boolean | undefined
  /** `true`: only keys with a `maxUses`; `false`: only keys without. */
  limitedUse?: boolean | undefined
  /** `true`: only keys whose uses reached their `maxUses`; `false`: only keys not exhausted. */
  exhausted?: boolean | undefined
}

/** What an attempt to use a key found: `used` counted the use; the others counted nothing. */
export type ApiKeyUse =
  | { outcome: 'used'; key: ApiKeyRecord }
  | { outcome: 'revoked' | 'exhausted'; key: ApiKeyRecord }
  | { outcome: 'missing' }

export interface ApiKeyRecordStore {
  /** Stores a new key; `CONFLICT` when its `id` or its `key` exists already. */
  createApiKey(key: ApiKeyRecord, options?: CallOptions): Promise<ApiKeyRecord>

  /** Tenant-scoped lookup by id. */
  getApiKey(tenantId: string, id: string, options?: CallOptions): Promise<ApiKeyRecord | undefined>

  /** Lookup by the public `key`, of any tenant: how a `pinata_api_key` header is authenticated. */
  findApiKey(key: string, options?: CallOptions): Promise<ApiKeyRecord | undefined>

  /**
   * The tenant's keys matching `filter` (filters combine with AND), newest first (`createdAt`
   * descending, ties by `id` descending), skipping `offset` and returning at most `limit`, with
   * the number of keys matching in all.
   */
  listApiKeys(
    tenantId: string,
    filter: ApiKeyFilter,
    page: { offset: number; limit: number },
    options?: CallOptions,
  ): Promise<{ items: ApiKeyRecord[]; total: number }>

  /**
   * Marks the tenant's key with this public `key` revoked (setting `updatedAt`), and returns it;
   * `undefined` when the tenant has no such key. Revoking twice keeps it revoked.
   */
  revokeApiKey(tenantId: string, key: string, at: Date, options?: CallOptions): Promise<ApiKeyRecord | undefined>

  /**
   * One use of a key, decided atomically: a revoked key is `revoked`; a key whose `uses` reached
   * its `maxUses` is `exhausted`; otherwise the use is counted (`uses + 1`, for keys with a
   * `maxUses`; an unlimited key is not written) and the answer is `used` with the key after it.
   * Of N concurrent uses of a key with M uses left, exactly min(N, M) are `used`, across processes.
   */
  useApiKey(tenantId: string, id: string, options?: CallOptions): Promise<ApiKeyUse>
}
