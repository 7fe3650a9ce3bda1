import { okData } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { EventList, EventListQuery, eventPageToWire, eventQueryFromWire, OperatorEventListQuery } from './wire.js'

const FILTERS =
  'Filter by `type` (comma-separated), `from` and `to` (ISO 8601); pages by `pageToken`. A malformed filter is a 400.'

/**
 * The audit log: every change to a tenant's records, with who made it (a user, an API key, the
 * operator, Pinfold itself) and the request that did. A tenant reads its own; the operator reads
 * everyone's on the admin API (invisible to other callers).
 */
export const auditRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v3/audit/events',
    auth: 'org:read',
    summary: 'The tenant’s audit log',
    tags: ['Audit log'],
    description: `The tenant’s own events, newest first. ${FILTERS}`,
    request: { query: EventListQuery },
    responses: okData(EventList, 'A page of events'),
    async handle({ service, actor, signal }, { query }) {
      return data(eventPageToWire(await service.events.list(actor, eventQueryFromWire(query), { signal })))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/v1/events',
    auth: 'operator',
    summary: 'Every tenant’s audit log',
    tags: ['Admin'],
    description: `Every tenant’s events (or one \`tenant\`’s), newest first. ${FILTERS}`,
    request: { query: OperatorEventListQuery },
    responses: okData(EventList, 'A page of events'),
    async handle({ service, operator, signal }, { query }) {
      const filters = { ...eventQueryFromWire(query), tenantId: query.tenant }
      return data(eventPageToWire(await service.events.listAll(operator!, filters, { signal })))
    },
  }),
]
