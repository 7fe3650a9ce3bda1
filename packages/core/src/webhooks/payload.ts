import type { WebhookEvent } from '@pinfold/interface'

/**
 * The body of a delivery, in the Standard Webhooks payload shape (`type`, `timestamp`, `data`):
 * the same bytes on every attempt, as it is signed with the event's id as `webhook-id`, so a
 * receiver can drop a repeat it already handled.
 */
export function webhookBody(event: WebhookEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.at.toISOString(),
    data: {
      event_id: event.id,
      tenant_id: event.tenantId,
      actor: event.actor,
      request_id: event.requestId,
      target: event.target,
      details: event.data,
    },
  })
}
