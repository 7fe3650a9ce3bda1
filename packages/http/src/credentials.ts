import { type FileService, PinfoldError, type TokenActor, type TokenVerifier } from '@pinfold/core'

/** Pinata's legacy credential headers: an API key's public half and its secret. */
const LEGACY_KEY = 'pinata_api_key'
const LEGACY_SECRET = 'pinata_secret_api_key'

/**
 * Who a request is from. Where Pinata accepts them — its legacy API (outside `/v3`, and the
 * `/v3/data/…` aliases of its `/data/…` endpoints) — a key's public half and secret in the
 * `pinata_api_key` / `pinata_secret_api_key` headers authenticate, and win over an Authorization
 * header (the SDK sends `Bearer undefined` beside them when configured with `customHeaders` only).
 * Otherwise a bearer token that is an API key's JWT is decided by the key's record (revoked,
 * exhausted → 401); any other bearer token by the deployment's verifier.
 */
export async function identify(
  request: Request,
  routePath: string,
  service: FileService,
  verifier: TokenVerifier,
): Promise<TokenActor> {
  const signal = request.signal
  const key = request.headers.get(LEGACY_KEY)
  const secret = request.headers.get(LEGACY_SECRET)
  const legacyRoute = !routePath.startsWith('/v3/') || routePath.startsWith('/v3/data/')
  if (legacyRoute && key !== null && secret !== null) return service.apiKeys.authenticateSecret(key, secret, { signal })
  const bearer = bearerToken(request)
  if (bearer) return (await service.apiKeys.authenticateToken(bearer, { signal })) ?? verifier.verify(bearer)
  const alternative = legacyRoute ? ` (or ${LEGACY_KEY} and ${LEGACY_SECRET} headers)` : ''
  throw new PinfoldError('UNAUTHENTICATED', `an Authorization: Bearer <token> header is required${alternative}`)
}

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization') ?? ''
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1]
}
