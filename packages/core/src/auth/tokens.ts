import { createSecretKey } from 'node:crypto'
import type { Actor } from '@pinfold/interface'
import { optionChecks, PinfoldError } from '@pinfold/interface'
import { errors, type JWTVerifyGetKey, jwtVerify, SignJWT } from 'jose'

export interface TokenActor extends Actor {
  readonly scopes: ReadonlySet<string>
  /** The API key the request was made with, when it was one: the keys it creates are its children. */
  readonly keyId?: string | undefined
}

interface CommonTokenOptions {
  issuer?: string | undefined
  audience?: string | undefined
  /**
   * Refuse tokens whose `exp` lies further ahead than this many seconds: an issuer's year-long
   * token is then as short-lived as this server wants. Unset: any `exp` is accepted.
   */
  maxLifetimeSeconds?: number | undefined
}

export type TokenVerifierOptions =
  | ({ secret: string | Uint8Array } & CommonTokenOptions)
  | ({
      /** A key resolver such as jose's `createRemoteJWKSet(new URL(…))`: fetching keys is the caller's I/O. */
      keys: JWTVerifyGetKey
      /** Asymmetric algorithms accepted from the key set. */
      algorithms?: string[] | undefined
    } & CommonTokenOptions)

export interface TokenVerifier {
  /** Resolves the actor of a bearer token, or rejects with `UNAUTHENTICATED`. */
  verify(token: string): Promise<TokenActor>
}

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']

/**
 * Claims every token must carry. `exp` is required because a token cannot be revoked before it
 * expires (there is no session store): one without `exp` would be a credential valid forever.
 */
const REQUIRED_CLAIMS = ['sub', 'exp']

/** How long a verified token is remembered (never past its `exp`): a revoked JWKS key stops working within this. */
const VERIFIED_TTL_MS = 60_000
const VERIFIED_MAX = 1024

/**
 * Bearer tokens are JWTs: `sub` = user, `org` = tenant (defaults to `sub`), `scope` = space-separated
 * scopes, `exp` required. The algorithm list is fixed per key type, so `alg: none` and HS/RS
 * confusion are refused by jose before any claim is read.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const claims = { issuer: options.issuer, audience: options.audience }
  const check = optionChecks('@pinfold/core', 'createTokenVerifier')
  const { maxLifetimeSeconds } = options
  if (maxLifetimeSeconds !== undefined) check.positiveInteger('maxLifetimeSeconds', maxLifetimeSeconds)
  if ('secret' in options) check.secret('secret', options.secret, 32)
  // without either, every request would be a 401 rather than the server failing to start
  else check.require('keys', typeof options?.keys === 'function', 'must be a key resolver (or give `secret`)')
  // A KeyObject made once: given raw bytes, jose imports the key again on every verification,
  // which profiling showed to be a large part of each request's cost.
  const hmacKey = 'secret' in options ? createSecretKey(secretKey(options.secret)) : undefined
  const verifyJwt =
    'secret' in options
      ? (token: string) =>
          jwtVerify(token, hmacKey!, { ...claims, algorithms: ['HS256'], requiredClaims: REQUIRED_CLAIMS })
      : (token: string) =>
          jwtVerify(token, options.keys, {
            ...claims,
            algorithms: options.algorithms ?? ASYMMETRIC,
            requiredClaims: REQUIRED_CLAIMS,
          })
  // Only tokens that passed verification are kept, so an unknown or forged token is never answered
  // from here; clients send the same token on every request, so most requests skip the HMAC.
  const verified = new Map<string, { actor: TokenActor; until: number }>()

  return {
    async verify(token) {
      const now = Date.now()
      const hit = verified.get(token)
      if (hit && hit.until > now) return hit.actor
      if (hit) verified.delete(token)
      let payload: Awaited<ReturnType<typeof verifyJwt>>['payload']
      try {
        payload = (await verifyJwt(token)).payload
      } catch (cause) {
        throw new PinfoldError('UNAUTHENTICATED', describeJwtFailure(cause), { cause })
      }
      const sub = payload.sub
      const org = payload.org ?? sub
      const scope = payload.scope ?? ''
      if (typeof sub !== 'string' || sub === '' || typeof org !== 'string' || org === '' || typeof scope !== 'string') {
        throw new PinfoldError('UNAUTHENTICATED', 'token claims sub, org and scope must be non-empty strings')
      }
      const expires = payload.exp! * 1000 // jose checked it is a number (required claim)
      if (maxLifetimeSeconds !== undefined && expires - now > maxLifetimeSeconds * 1000) {
        throw new PinfoldError('UNAUTHENTICATED', `token expires more than ${maxLifetimeSeconds} s from now`)
      }
      const actor: TokenActor = { tenantId: org, userId: sub, scopes: new Set(scope.split(/\s+/).filter(Boolean)) }
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!)
      verified.set(token, { actor, until: Math.min(now + VERIFIED_TTL_MS, expires) })
      return actor
    },
  }
}

export interface MintTokenOptions {
  sub: string
  org?: string | undefined
  scopes: readonly string[]
  /** jose time span (`'1h'`, `'30d'`) or seconds from now: required, verifiers refuse tokens without `exp`. */
  expiresIn: string | number
  issuer?: string | undefined
  audience?: string | undefined
  now?: Date | undefined
}

/** Mints an HS256 token that {@link createTokenVerifier} with the same secret accepts. */
export async function mintToken(secret: string | Uint8Array, options: MintTokenOptions): Promise<string> {
  const jwt = new SignJWT({ org: options.org ?? options.sub, scope: options.scopes.join(' ') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.sub)
    .setIssuedAt(options.now)
  const base = Math.floor((options.now ?? new Date()).getTime() / 1000)
  try {
    jwt.setExpirationTime(typeof options.expiresIn === 'number' ? base + options.expiresIn : options.expiresIn)
  } catch (cause) {
    throw new PinfoldError('INVALID_INPUT', `expiresIn must be seconds or a time span such as "1h" or "30d"`, { cause })
  }
  if (options.issuer) jwt.setIssuer(options.issuer)
  if (options.audience) jwt.setAudience(options.audience)
  return jwt.sign(secretKey(secret))
}

function secretKey(secret: string | Uint8Array): Uint8Array {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret
  if (key.length < 32)
    throw new PinfoldError('INVALID_INPUT', '@pinfold/core: the token secret must be at least 32 bytes')
  return key
}

function describeJwtFailure(cause: unknown): string {
  if (cause instanceof errors.JWTExpired) return 'token has expired'
  if (cause instanceof errors.JWSSignatureVerificationFailed) return 'token signature is invalid'
  if (cause instanceof errors.JOSEAlgNotAllowed) return 'token algorithm is not allowed'
  if (cause instanceof errors.JWTClaimValidationFailed && cause.claim === 'exp' && cause.reason === 'missing') {
    return 'token has no expiry: an exp claim is required'
  }
  if (cause instanceof errors.JWTClaimValidationFailed) return `token claim check failed: ${cause.claim}`
  return 'token is malformed'
}
