import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'

/** Standard Webhooks secrets are 24 to 64 random bytes; 32 match the HMAC-SHA256 key size. */
const SECRET_BYTES = 32

/**
 * A new signing secret in the Standard Webhooks form (`whsec_` + base64). The library has no
 * generator; building a `Webhook` from it proves the library reads it back as this key.
 */
export function newWebhookSecret(): string {
  const secret = `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`
  new Webhook(secret)
  return secret
}
