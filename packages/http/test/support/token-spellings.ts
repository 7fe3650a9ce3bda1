const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/**
 * `token` and every other spelling of its signature that decodes to the same bytes. A 32-byte
 * HS256 signature is 43 base64url characters whose last one carries 4 unused bits, so 16
 * spellings verify: anything keyed on a token's text sees 16 tokens.
 */
export function signatureSpellings(token: string): string[] {
  const [header, payload, signature] = token.split('.') as [string, string, string]
  const bytes = Buffer.from(signature, 'base64url')
  return [...BASE64URL]
    .map((last) => `${signature.slice(0, -1)}${last}`)
    .filter((spelling) => Buffer.from(spelling, 'base64url').equals(bytes))
    .map((spelling) => `${header}.${payload}.${spelling}`)
}
