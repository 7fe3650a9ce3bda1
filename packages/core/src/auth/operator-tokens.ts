import { createHmac, createSecretKey, type KeyObject } from 'node:crypto'
import { PinfoldError } from '@pinfold/interface'
import { jwtVerify, SignJWT } from 'jose'

/**
 * The operator's scope. It is not one of the tenant scopes (`SCOPES`): no permission maps to it, so
 * no API key can be created with it, and a tenant token claiming it gains nothing, since only a
 * token signed under the operator key (below) is ever read as an operator's.
 */
export const OPERATOR_SCOPE = 'pinfold:operator'

/** What the admin operations know of the operator calling them. */
export interface OperatorActor {
  /** The token's `sub`: who the operator is, for logs. */
  operatorId: string
  /** The request being served, set by the HTTP layer: the audit log's entries carry it. */
  requestId?: string | undefined
}

export interface OperatorTokenOptions {
  sub: string
  /** jose time span (`'1h'`) or seconds from now: required, as for every token. */
  expiresIn: string | number
  now?: Date | undefined
}

/**
 * The key operator tokens are signed with: derived from the deployment's signing secret for this
 * purpose only, as API key tokens have theirs. A tenant token (signed with the secret itself, or by
 * a JWKS issuer) and an API key's token (under the API key derivation) never verify under it, so
 * whoever does not hold the server's secret cannot make an operator token, whatever scopes they
 * put in a token they can make.
 */
function operatorKey(secret: string | Uint8Array): KeyObject {
  return createSecretKey(createHmac('sha256', secret).update('pinfold-operator-tokens').digest())
}

/** Mints an operator token (`pinfold token --operator`): HS256 under the operator key, with {@link OPERATOR_SCOPE}. */
export async function mintOperatorToken(secret: string | Uint8Array, options: OperatorTokenOptions): Promise<string> {
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000)
  const jwt = new SignJWT({ scope: OPERATOR_SCOPE })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.sub)
    .setIssuedAt(issuedAt)
  try {
    jwt.setExpirationTime(typeof options.expiresIn === 'number' ? issuedAt + options.expiresIn : options.expiresIn)
  } catch (cause) {
    throw new PinfoldError('INVALID_INPUT', 'expiresIn must be seconds or a time span such as "1h" or "30d"', { cause })
  }
  return jwt.sign(operatorKey(secret))
}

export interface OperatorTokens {
  /** The operator a token names, or `UNAUTHENTICATED` for anything else (a tenant's token included). */
  verify(token: string): Promise<OperatorActor>
}

export function createOperatorTokens(secret: string | Uint8Array): OperatorTokens {
  const key = operatorKey(secret)
  return {
    async verify(token) {
      let payload: Awaited<ReturnType<typeof jwtVerify>>['payload']
      try {
        ;({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp'] }))
      } catch (cause) {
        throw new PinfoldError('UNAUTHENTICATED', 'not an operator token', { cause })
      }
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(/\s+/) : []
      if (!scopes.includes(OPERATOR_SCOPE) || typeof payload.sub !== 'string' || payload.sub === '') {
        throw new PinfoldError('UNAUTHENTICATED', 'not an operator token')
      }
      return { operatorId: payload.sub }
    },
  }
}
