/**
 * API keys: long-lived credentials a tenant creates, lists and revokes (Pinata's `/v3/pinata/keys`).
 * A key is presented either as the JWT issued with it (which names the key's `id`) or as its
 * public `key` and its secret (Pinata's legacy `pinata_api_key` / `pinata_secret_api_key`
 * headers). The record store is the truth about a key: whether it is revoked and how often it
 * was used, so every server sharing the store sees a revocation or the last allowed use.
 */

import type { CallOptions } from '../call-options.js'
import type { RecordedOptions } from './event-records.js'

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
  /**
   * Uses counted so far (only keys with a `maxUses` are counted), including the uses handed to
   * the keys it created (see `createApiKey`).
   */
  uses: number
  revoked: boolean
  /**
   * The `id` of the key whose credentials created this key; `null` when a token that is no key
   * (the deployment's own) created it. A key never holds more than the key that created it.
   */
  parentId: string | null
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
  /**
   * Stores a new key; `CONFLICT` when its `id` or its `key` exists already.
   *
   * A key with a `parentId` is created only from what its parent has left, decided atomically
   * with the parent's revocation and its uses: the parent (same tenant) must exist and not be
   * revoked; when the parent has a `maxUses`, the key must have one too, no more than the parent's
   * uses left (`maxUses - uses`), and creating it adds the key's `maxUses` to the parent's `uses`,
   * so a key and all it created never use more than the key was allowed. Otherwise `FORBIDDEN`,
   * and nothing is written. Of concurrent creations under one parent, exactly those that fit in
   * its uses left succeed; a creation racing the parent's revocation either fails or creates a
   * key that the revocation revokes too.
   */
  createApiKey(key: ApiKeyRecord, options?: RecordedOptions): Promise<ApiKeyRecord>

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
   * Marks the tenant's key with this public `key` revoked (setting `updatedAt` of each key it
   * revokes), with every key it created, and theirs, down the whole tree, and returns the key;
   * `undefined` when the tenant has no such key. Revoking twice keeps it revoked (and its first
   * `updatedAt`). No key created under any of them, however concurrently, is left unrevoked.
   */
  revokeApiKey(tenantId: string, key: string, at: Date, options?: RecordedOptions): Promise<ApiKeyRecord | undefined>

  /**
   * Revokes every key of the tenant in one atomic step (setting `updatedAt` of each it revokes; keys
   * revoked already keep theirs) and answers how many it revoked. A child key created concurrently
   * fails (its parent is revoked) or is revoked with the rest.
   */
  revokeTenantApiKeys(tenantId: string, at: Date, options?: RecordedOptions): Promise<number>

  /**
   * One use of a key, decided atomically: a revoked key is `revoked`; a key whose `uses` reached
   * its `maxUses` is `exhausted`; otherwise the use is counted (`uses + 1`, for keys with a
   * `maxUses`; an unlimited key is not written) and the answer is `used` with the key after it.
   * Of N concurrent uses of a key with M uses left, exactly min(N, M) are `used`, across processes.
   */
  useApiKey(tenantId: string, id: string, options?: CallOptions): Promise<ApiKeyUse>
}
