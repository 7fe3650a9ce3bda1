import type { WebhookEventType } from '../../api/types'

/**
 * Every type an endpoint may receive, in words. A record over the server's own enum (generated
 * into `api/wire.ts`): a type the server adds and this list lacks fails the type check.
 */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'file.created': 'A file was uploaded',
  'file.deleted': 'A file was deleted',
  'file.updated': 'A file’s name, group, keyvalues or expiry changed',
  'pin.queued': 'A pin by CID was queued',
  'pin.pinned': 'A pin by CID was pinned',
  'pin.failed': 'A pin by CID failed',
  'key.revoked': 'An API key was revoked',
  'quota.reached': 'A storage or file limit was reached',
  'content.blocked': 'Content was blocked by a deny rule',
  'endpoint.disabled': 'A webhook endpoint was disabled: it kept failing, or by its owner or the operator',
}

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENT_LABELS) as WebhookEventType[]
