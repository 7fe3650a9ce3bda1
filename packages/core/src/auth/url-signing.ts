import { createHmac, timingSafeEqual } from 'node:crypto'

export const SIGNATURE_PARAM = 'X-Signature'

/**
 * HMAC-SHA256 signatures for URLs the server hands out (signed upload URLs, private download
 * links). The signature covers the path — relative to the API's own root, so a mount prefix or
 * another public host does not break it — and every query parameter except the signature itself,
 * sorted, so no parameter can be added, removed or changed without invalidating it.
 */
export interface UrlSigner {
  /** The `X-Signature` value for this path and these parameters. */
  sign(path: string, params: Iterable<[string, string]>): string
  /** Whether `params` carries a valid `X-Signature` for `path`; compared in constant time. */
  verify(path: string, params: URLSearchParams): boolean
}

export function createUrlSigner(secret: string | Uint8Array, purpose: string): UrlSigner {
  // a per-purpose key: a download link's signature can never be replayed as an upload URL's
  const key = createHmac('sha256', secret).update(`pinfold-url-signing:${purpose}`).digest()
  const mac = (path: string, params: Iterable<[string, string]>) => {
    const canonical = [...params]
      .filter(([name]) => name !== SIGNATURE_PARAM)
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .sort()
      .join('&')
    return createHmac('sha256', key).update(`${path}\n${canonical}`).digest()
  }
  return {
    sign: (path, params) => mac(path, params).toString('base64url'),
    verify(path, params) {
      const given = params.getAll(SIGNATURE_PARAM)
      if (given.length !== 1) return false
      const expected = mac(path, params)
      const actual = Buffer.from(given[0]!, 'base64url')
      return actual.length === expected.length && timingSafeEqual(actual, expected)
    },
  }
}
