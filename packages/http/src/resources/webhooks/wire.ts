import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { DateTime, named, pageQuery } from '../../schema.js'
import { TenantIdParam } from '../admin/wire.js'

const EVENT_TYPES_DESCRIPTION = `Event types to receive: ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}`

/**
 * A request's types are plain strings, so an unknown one gets core's message (which lists the
 * known ones); an endpoint's stored types were checked by it, so the answer names them as an enum,
 * which gives the console (its generated types) the list to offer.
 */
const EventTypes = Type.Array(Type.String(), { description: EVENT_TYPES_DESCRIPTION })
const WebhookEventTypeSchema = named('WebhookEventType', Type.Enum([...WEBHOOK_EVENT_TYPES]))

export const WebhookEndpointObject = named(
  'WebhookEndpoint',
  Type.Object({
    id: Type.String(),
    url: Type.String({ format: 'uri' }),
    event_types: Type.Array(WebhookEventTypeSchema, { description: EVENT_TYPES_DESCRIPTION }),
    description: Type.String(),
    enabled: Type.Boolean({
      description:
        'A disabled endpoint is sent nothing: no new events are queued for it, and those queued wait until it is enabled again (`PATCH` with `enabled: true`)',
    }),
    disabled_at: Type.Union([DateTime, Type.Null()], { description: 'When it was disabled; null while enabled' }),
    disabled_reason: Type.Union([Type.String(), Type.Null()], {
      description:
        'Why: `disabled by its owner`; `disabled by the operator` (with the operator’s reason after a colon, when it gave one); or, when Pinfold disabled it, that every attempt failed for the period the operator set (5 days unless configured) and the last error',
    }),
    failing_since: Type.Union([DateTime, Type.Null()], {
      description: 'The first failed attempt since the last delivered one; null when the last attempt delivered',
    }),
    previous_secret_expires_at: Type.Union([DateTime, Type.Null()], {
      description:
        'The end of the last secret rotation’s grace period: until then deliveries are signed by the replaced secret too (two signatures in `webhook-signature`); null before any rotation',
    }),
    created_at: DateTime,
    updated_at: DateTime,
  }),
)

export const CreatedWebhookEndpointObject = Type.Intersect([
  WebhookEndpointObject,
  Type.Object({
    secret: Type.String({
      description:
        'The Standard Webhooks signing secret (`whsec_…`), shown only now (at registration or rotation): verify each delivery with it (`webhook-id`, `webhook-timestamp`, `webhook-signature`)',
    }),
  }),
])

export const WebhookEndpointList = Type.Object({
  endpoints: Type.Array(WebhookEndpointObject),
  next_page_token: Type.String({ description: 'Empty on the last page' }),
})

export const WebhookEndpointCreate = Type.Object({
  url: Type.String({
    description: 'http or https; its host must resolve to public addresses (unless the operator allows others)',
  }),
  event_types: EventTypes,
  description: Type.Optional(Type.String()),
})

export const WebhookEndpointPatch = Type.Object({
  url: Type.Optional(Type.String()),
  event_types: Type.Optional(EventTypes),
  description: Type.Optional(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
})

export const WebhookDeliveryObject = named(
  'WebhookDelivery',
  Type.Object({
    id: Type.String(),
    event_id: Type.String({ description: 'The `webhook-id` of every attempt of this delivery' }),
    event_type: Type.String(),
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('delivering'),
      Type.Literal('delivered'),
      Type.Literal('failed'),
    ]),
    attempts: Type.Integer({ minimum: 0 }),
    last_status_code: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The HTTP status of the last answer; null when none came (refused address, timeout)',
    }),
    last_error: Type.Union([Type.String(), Type.Null()]),
    last_attempt_at: Type.Union([DateTime, Type.Null()]),
    next_attempt_at: Type.Union([DateTime, Type.Null()], { description: 'When it is tried next; null once ended' }),
    created_at: DateTime,
  }),
)

export const WebhookDeliveryList = Type.Object({
  deliveries: Type.Array(WebhookDeliveryObject),
  next_page_token: Type.String({ description: 'Empty on the last page' }),
})

export const WebhookIdParams = { id: Type.String({ minLength: 1, maxLength: 200 }) }
export const WebhookTenantParams = { tenantId: TenantIdParam }

export const WebhookDisableBody = Type.Object({
  reason: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'Why, shown to the tenant in `disabled_reason` (`disabled by the operator: <reason>`)',
    }),
  ),
})
export const WebhookPageQuery = Type.Object(pageQuery)

export function endpointToWire(e: WebhookEndpoint): Static<typeof WebhookEndpointObject> {
  return {
    id: e.id,
    url: e.url,
    // checked against WEBHOOK_EVENT_TYPES when the endpoint was registered or changed
    event_types: e.eventTypes as WebhookEventType[],
    description: e.description,
    enabled: e.enabled,
    disabled_at: e.disabledAt?.toISOString() ?? null,
    disabled_reason: e.disabledReason,
    failing_since: e.failingSince?.toISOString() ?? null,
    previous_secret_expires_at: e.previousSecretExpiresAt?.toISOString() ?? null,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  }
}

export function deliveryToWire(d: WebhookDelivery): Static<typeof WebhookDeliveryObject> {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
  }
}
