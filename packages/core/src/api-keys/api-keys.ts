import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { type ApiKeyRecord, type CallOptions, invalid, notFound, PinfoldError } from '@pinfold/interface'
import { createApiKeyTokens, isApiKeyToken } from '../auth/api-key-tokens.js'
import { scopesOfPermissions } from '../auth/key-permissions.js'
import { allows, type Scope } from '../auth/scopes.js'
import type { TokenActor } from '../auth/tokens.js'
import { validateName } from '../common/validate.js'
import { tenantEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import type { ApiKeyInfo, ApiKeyListQuery, ApiKeyOperations } from './api.js'
import type { TrustedKeys } from './trusted-keys.js'

/** What the API key operations use of the service. */
export type ApiKeySettings = Pick<ServiceContext, 'records' | 'ids' | 'clock' | 'features'> & {
  trustedKeys: TrustedKeys
}

/** Keys per page of a listing (the SDK pages by `offset` until a page comes back empty). */
export const API_KEY_PAGE_SIZE = 100

/** The secret is 256 random bits: a plain SHA-256 is enough to keep it out of the store's reach. */
const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex')

const info = ({ secretHash: _, ...key }: ApiKeyRecord): ApiKeyInfo => key

/**
 * API keys: created with Pinata's permissions, presented as their JWT or (legacy) key and secret,
 * revoked for every server at once because the record store decides every use. A key may create
 * keys (Pinata's admin keys do), never beyond itself: not more scopes (checked here), not more
 * uses, and not past its revocation (the record store's `createApiKey` and `revokeApiKey`).
 */
export function createApiKeyOperations(ctx: ApiKeySettings): ApiKeyOperations {
  const tokens = ctx.features.derive('apiKeys', ({ signingSecret }) => createApiKeyTokens(signingSecret))

  /** Decides one use of a key: counted (limited keys) or read (unlimited, at most every few seconds). */
  async function admit(tenantId: string, keyId: string, options?: CallOptions): Promise<TokenActor> {
    const now = ctx.clock.now().getTime()
    const cached = ctx.trustedKeys.get(keyId, tenantId, now)
    if (cached) return actorOf(cached)
    const use = await ctx.records.apiKeys.useApiKey(tenantId, keyId, options)
    if (use.outcome === 'missing') throw new PinfoldError('UNAUTHENTICATED', 'this API key does not exist')
    if (use.outcome === 'revoked') throw new PinfoldError('UNAUTHENTICATED', 'this API key has been revoked')
    if (use.outcome === 'exhausted') throw new PinfoldError('UNAUTHENTICATED', 'this API key has no uses left')
    if (use.key.maxUses === null) ctx.trustedKeys.trust(use.key, now)
    return actorOf(use.key)
  }

  return {
    async create(actor, input, options) {
      const sign = tokens() // first: with the feature off, nothing is written
      const name = validateName(input.name, 'keyName')
      const scopes = scopesOfPermissions(input.permissions)
      const maxUses = input.maxUses ?? null
      if (maxUses !== null && (!Number.isSafeInteger(maxUses) || maxUses < 1 || maxUses > 2 ** 31 - 1)) {
        throw invalid('maxUses must be a positive integer')
      }
      const withheld = scopes.find((scope) => !allows(actor.scopes, scope))
      if (withheld) throw new PinfoldError('FORBIDDEN', `a key cannot grant ${withheld}: this token lacks it`)
      const secret = randomBytes(32).toString('hex')
      const now = ctx.clock.now()
      const id = ctx.ids.recordId()
      const publicKey = randomBytes(10).toString('hex')
      // the key's id and public half name it; its secret never reaches the log
      const event = tenantEvent(actor, {
        type: 'key.created',
        target: { kind: 'key', id },
        data: { key: publicKey, name, scopes, maxUses },
      })
      const key = await ctx.records.apiKeys.createApiKey(
        {
          id,
          tenantId: actor.tenantId,
          userId: actor.userId,
          name,
          key: publicKey,
          secretHash: hashSecret(secret),
          scopes,
          permissions: structuredClone(input.permissions) as Record<string, unknown>,
          maxUses,
          uses: 0,
          revoked: false,
          // a key's child: the store gives it only what the parent has left (uses, revocation)
          parentId: actor.keyId ?? null,
          createdAt: now,
          updatedAt: now,
        },
        { ...options, events: [event] },
      )
      const jwt = await sign.mint({ tenantId: key.tenantId, userId: key.userId, keyId: key.id, scopes }, now)
      return { key: info(key), secret, jwt }
    },

    async list(actor, query: ApiKeyListQuery, options) {
      const offset = query.offset ?? 0
      if (!Number.isSafeInteger(offset) || offset < 0) throw invalid('offset must be a non-negative integer')
      const { name, revoked, limitedUse, exhausted } = query
      const { items, total } = await ctx.records.apiKeys.listApiKeys(
        actor.tenantId,
        { name, revoked, limitedUse, exhausted },
        { offset, limit: API_KEY_PAGE_SIZE },
        options,
      )
      return { keys: items.map(info), total }
    },

    async revoke(actor, key, options) {
      const found = await ctx.records.apiKeys.findApiKey(key, options)
      if (!found || found.tenantId !== actor.tenantId) throw notFound('API key')
      const event = tenantEvent(actor, {
        type: 'key.revoked',
        target: { kind: 'key', id: found.id },
        data: { key: found.key, name: found.name },
      })
      const revoked = await ctx.records.apiKeys.revokeApiKey(actor.tenantId, key, ctx.clock.now(), {
        ...options,
        events: [event],
      })
      if (!revoked) throw notFound('API key')
      ctx.trustedKeys.revoked()
      return info(revoked)
    },

    async authenticateToken(token, options) {
      if (!isApiKeyToken(token)) return undefined
      if (!ctx.features.enabled.apiKeys) {
        throw new PinfoldError('UNAUTHENTICATED', 'API keys are not enabled on this server')
      }
      const { tenantId, keyId } = await tokens().verify(token)
      return admit(tenantId, keyId, options)
    },

    async authenticateSecret(key, secret, options) {
      const found = await ctx.records.apiKeys.findApiKey(key, options)
      const expected = Buffer.from(found?.secretHash ?? hashSecret(''), 'hex')
      const given = Buffer.from(hashSecret(secret), 'hex')
      // compared even when no key was found, so the answer's timing does not tell which half was wrong
      const matches = timingSafeEqual(given, expected) && found !== undefined
      if (!matches) throw new PinfoldError('UNAUTHENTICATED', 'the API key or its secret is wrong')
      return admit(found.tenantId, found.id, options)
    },
  }
}

function actorOf(key: ApiKeyRecord): TokenActor {
  return { tenantId: key.tenantId, userId: key.userId, scopes: new Set<Scope | string>(key.scopes), keyId: key.id }
}
