import { createHmac, createSecretKey } from 'node:crypto'
import { PinfoldError } from '@pinfold/interface'
import { decodeJwt, jwtVerify, SignJWT } from 'jose'

/** The claim naming the API key a JWT was issued for. */
export const API_KEY_CLAIM = 'pinfold_key'

/** As long as Pinata's key JWTs; the key's record, not the expiry, is what ends a key. */
const KEY_TOKEN_LIFETIME_SECONDS = 365 * 24 * 60 * 60

export interface ApiKeyTokens {
  mint(
    claims: { tenantId: string; userId: string; keyId: string; scopes: readonly string[] },
    now: Date,
  ): Promise<string>
  /** The tenant and key a key JWT names, or `UNAUTHENTICATED`. */
  verify(token: string): Promise<{ tenantId: string; keyId: string }>
}

/**
 * JWTs issued with API keys, HS256 under a key derived from the service's signing secret for this
 * purpose only: a bearer token verifier holding the same secret never accepts them, so a key's
 * JWT is honoured only where its key record is checked (revocation, `maxUses`).
 */
export function createApiKeyTokens(secret: string | Uint8Array): ApiKeyTokens {
  const key = createSecretKey(createHmac('sha256', secret).update('pinfold-api-key-tokens').digest())
  return {
    async mint({ tenantId, userId, keyId, scopes }, now) {
      const issuedAt = Math.floor(now.getTime() / 1000)
      return new SignJWT({ org: tenantId, scope: scopes.join(' '), [API_KEY_CLAIM]: keyId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + KEY_TOKEN_LIFETIME_SECONDS)
        .sign(key)
    },
    async verify(token) {
      let payload: Awaited<ReturnType<typeof jwtVerify>>['payload']
      try {
        ;({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp'] }))
      } catch (cause) {
        throw new PinfoldError('UNAUTHENTICATED', 'API key token is invalid or expired', { cause })
      }
      const { org, [API_KEY_CLAIM]: keyId } = payload
      if (typeof org !== 'string' || typeof keyId !== 'string') {
        throw new PinfoldError('UNAUTHENTICATED', 'API key token claims org and pinfold_key must be strings')
      }
      return { tenantId: org, keyId }
    },
  }
}

/**
 * Whether a bearer token claims to be an API key's JWT (read without verifying: the claim only
 * says which verification applies, and a forged one fails that verification).
 */
export function isApiKeyToken(token: string): boolean {
  try {
    return API_KEY_CLAIM in decodeJwt(token)
  } catch {
    return false
  }
}
