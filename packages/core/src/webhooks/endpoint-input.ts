import { invalid, WEBHOOK_EVENT_TYPES } from '@pinfold/interface'

const MAX_URL_LENGTH = 2048
const MAX_DESCRIPTION_LENGTH = 500
const KNOWN_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES)

/**
 * An endpoint URL as it will be posted to: absolute `http:` or `https:`, without credentials (a
 * secret in a URL ends up in logs; the signature is the authentication), without a fragment.
 * Whether its host may be reached is decided later, on the resolved addresses.
 */
export function validateEndpointUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) {
    throw invalid(`url must be a string of 1 to ${MAX_URL_LENGTH} characters`)
  }
  if (!URL.canParse(value)) throw invalid('url is not an absolute URL')
  const url = new URL(value)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('url must use http or https')
  if (url.username || url.password) throw invalid('url must not hold a user name or password')
  if (url.hash) throw invalid('url must not hold a fragment')
  return url.href
}

/** A non-empty list of known event types, each once. */
export function validateEventTypes(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid('event_types must be a non-empty array')
  for (const type of value) {
    if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) {
      throw invalid(`unknown event type ${JSON.stringify(type)}: one of ${WEBHOOK_EVENT_TYPES.join(', ')}`)
    }
  }
  return [...new Set(value as string[])]
}

export function validateDescription(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_DESCRIPTION_LENGTH) {
    throw invalid(`description must be a string of at most ${MAX_DESCRIPTION_LENGTH} characters`)
  }
  return value
}

/** The operator's words on why it disabled a tenant's endpoint: shown to the tenant. */
export function validateReason(value: unknown): string {
  const reason = typeof value === 'string' ? value.trim() : ''
  if (reason === '' || reason.length > MAX_DESCRIPTION_LENGTH) {
    throw invalid(`reason must be a non-empty text of at most ${MAX_DESCRIPTION_LENGTH} characters`)
  }
  return reason
}
