/** `FileService.apiKeys`: the contract (its operations are in `api-keys.ts`). */

import type { Actor, ApiKeyRecord, CallOptions } from '@pinfold/interface'
import type { TokenActor } from '../auth/tokens.js'

/** A key as it is shown: everything but the hash of its secret. */
export type ApiKeyInfo = Omit<ApiKeyRecord, 'secretHash'>

export interface ApiKeyInput {
  name: string
  /** Pinata's permissions: `{admin: true}`, or `{endpoints: {pinning: {pinFileToIPFS: true}, …}}` and/or `{resources: [scope, …]}`. */
  permissions: unknown
  /** Uses allowed in all (every authenticated request is one); unset or `null`: unlimited. */
  maxUses?: number | null | undefined
}

export interface CreatedApiKey {
  key: ApiKeyInfo
  /** The secret (`pinata_api_secret`): shown once, only its hash is stored. */
  secret: string
  /** A bearer token for the key (`JWT`): it names the key, so the key's revocation and `maxUses` apply to it. */
  jwt: string
}

export interface ApiKeyListQuery {
  offset?: number | undefined
  name?: string | undefined
  revoked?: boolean | undefined
  limitedUse?: boolean | undefined
  exhausted?: boolean | undefined
}

export interface ApiKeyOperations {
  /**
   * Creates a key of the actor's tenant. `INVALID_INPUT` for a bad name, permissions or `maxUses`;
   * `FORBIDDEN` when the permissions grant a scope the actor does not hold (no key outranks its
   * maker); `UNAVAILABLE` without a signing secret.
   */
  create(actor: TokenActor, input: ApiKeyInput, options?: CallOptions): Promise<CreatedApiKey>
  /** A page of the tenant's keys, newest first, and how many match in all. */
  list(actor: Actor, query: ApiKeyListQuery, options?: CallOptions): Promise<{ keys: ApiKeyInfo[]; total: number }>
  /** Revokes the tenant's key with this public `key`, for every server sharing the store; `NOT_FOUND`. */
  revoke(actor: Actor, key: string, options?: CallOptions): Promise<ApiKeyInfo>
  /**
   * The actor of a bearer token that is an API key's JWT — one use of the key (`UNAUTHENTICATED`
   * when it is revoked, exhausted, unknown or the token is not valid) — or `undefined` for any
   * other token, which the caller's token verifier decides.
   */
  authenticateToken(token: string, options?: CallOptions): Promise<TokenActor | undefined>
  /** The actor of a key presented as key and secret (`pinata_api_key` / `pinata_secret_api_key`): one use of it. */
  authenticateSecret(key: string, secret: string, options?: CallOptions): Promise<TokenActor>
}
