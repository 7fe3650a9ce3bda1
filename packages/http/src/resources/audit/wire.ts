import type { EventPage, EventRecord } from '@pinfold/core'
import { EVENT_PAGE_MAX } from '@pinfold/core'
import Type from 'typebox'
import { DateTime, named } from '../../schema.js'

/** The filters both views of the audit log take; the operator's adds a tenant. */
const filterFields = {
  type: Type.Optional(
    Type.String({
      maxLength: 2000,
      description: 'Event types, comma-separated (`file.created,file.deleted`); default: every type',
    }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Only events at or after this moment' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Only events before this moment' })),
  order: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'By `seq`; default `desc` (newest first)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: EVENT_PAGE_MAX, description: 'Default 100' })),
  pageToken: Type.Optional(Type.String({ maxLength: 32, description: 'The `next_page_token` of the previous page' })),
}

export const EventListQuery = Type.Object(filterFields)

export const OperatorEventListQuery = Type.Object({
  ...filterFields,
  tenant: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Only this tenant’s events (empty: the deployment’s own, such as deny rules)',
    }),
  ),
})

const AuditEvent = named(
  'AuditEvent',
  Type.Object({
    id: Type.String({ description: 'A UUID' }),
    seq: Type.Integer({ minimum: 1, description: 'Increases with every event the deployment records' }),
    tenant_id: Type.String(),
    type: Type.String({ description: 'Dotted lowercase: `file.created`, `key.revoked`, `tenant.suspended`, …' }),
    actor: Type.Object({
      kind: Type.Enum(['user', 'key', 'operator', 'system']),
      id: Type.String({ description: 'The token’s user, the API key’s id, the operator, or the component' }),
    }),
    request_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The `X-Request-Id` of the request that made the change; null for changes no request made',
    }),
    target: Type.Object({ kind: Type.String(), id: Type.String() }),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'A few facts about the change (CID, name, size)' }),
    at: DateTime,
  }),
)

export const EventList = named(
  'AuditEventPage',
  Type.Object({
    events: Type.Array(AuditEvent),
    next_page_token: Type.String({ description: 'Empty on the last page' }),
  }),
)

export function eventToWire(event: EventRecord) {
  return {
    id: event.id,
    seq: event.seq,
    tenant_id: event.tenantId,
    type: event.type,
    actor: event.actor,
    request_id: event.requestId,
    target: event.target,
    data: event.data,
    at: event.at.toISOString(),
  }
}

export function eventPageToWire(page: EventPage) {
  return { events: page.events.map(eventToWire), next_page_token: page.nextPageToken }
}

/** The query's filters in the service's terms: `type` split at commas, times parsed. */
export function eventQueryFromWire(query: {
  type?: string | undefined
  from?: string | undefined
  to?: string | undefined
  order?: 'asc' | 'desc' | undefined
  limit?: number | undefined
  pageToken?: string | undefined
}) {
  return {
    types: query.type
      ?.split(',')
      .map((type) => type.trim())
      .filter(Boolean),
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
    order: query.order,
    limit: query.limit,
    pageToken: query.pageToken,
  }
}
