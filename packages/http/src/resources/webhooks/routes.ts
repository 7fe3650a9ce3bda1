import type { WebhookCaller } from '@pinfold/core'
import { errorResponse, okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute, type RequestContext } from '../../router.js'
import {
  CreatedWebhookEndpointObject,
  deliveryToWire,
  endpointToWire,
  WebhookDeliveryList,
  WebhookDeliveryObject,
  WebhookDisableBody,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointObject,
  WebhookEndpointPatch,
  WebhookIdParams,
  WebhookPageQuery,
  WebhookTenantParams,
} from './wire.js'

/**
 * Signed webhooks: a tenant's endpoints under `/v3/webhooks` (its own events), the operator's
 * under `/admin/v1/webhooks` (every tenant's events), the same operations on both. Each delivery
 * is signed by the Standard Webhooks scheme with the endpoint's secret, shown once at creation.
 */
function webhookRoutesAt(
  base: string,
  auth: { read: 'org:read' | 'operator'; write: 'org:write' | 'operator' },
  tags: string[],
  callerOf: (context: RequestContext) => WebhookCaller,
) {
  const byId = { params: WebhookIdParams }
  return [
    defineRoute({
      method: 'POST',
      path: base,
      auth: auth.write,
      summary: 'Register a webhook endpoint',
      tags,
      description:
        'The answer holds the signing secret, shown only here. A URL whose host resolves to a loopback, private, link-local or other non-public address is a 400 (unless the operator allows them).',
      request: { body: WebhookEndpointCreate },
      responses: {
        ...okData(CreatedWebhookEndpointObject, 'Registered', '201'),
        '429': errorResponse('The owner has as many endpoints as it may register'),
      },
      async handle(context, { body }) {
        const { endpoint, secret } = await context.service.webhooks.create(
          callerOf(context),
          { url: body.url, eventTypes: body.event_types, description: body.description },
          { signal: context.signal },
        )
        return data({ ...endpointToWire(endpoint), secret }, 201)
      },
    }),
    defineRoute({
      method: 'GET',
      path: base,
      auth: auth.read,
      summary: 'Webhook endpoints',
      tags,
      description: 'Newest first.',
      request: { query: WebhookPageQuery },
      responses: okData(WebhookEndpointList),
      async handle(context, { query }) {
        const page = await context.service.webhooks.list(
          callerOf(context),
          { limit: query.limit, pageToken: query.pageToken },
          { signal: context.signal },
        )
        return data({ endpoints: page.items.map(endpointToWire), next_page_token: page.nextPageToken })
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/:id`,
      auth: auth.read,
      summary: 'A webhook endpoint',
      tags,
      request: byId,
      responses: okData(WebhookEndpointObject),
      async handle(context, { params }) {
        return data(
          endpointToWire(await context.service.webhooks.get(callerOf(context), params.id, { signal: context.signal })),
        )
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${base}/:id`,
      auth: auth.write,
      summary: 'Change a webhook endpoint',
      tags,
      description:
        'Fields not given stay. A new URL is checked as at registration. `enabled: true` re-enables an endpoint disabled by its owner or for failing: its queued deliveries are sent again and its failing streak starts over.',
      request: { ...byId, body: WebhookEndpointPatch },
      responses: okData(WebhookEndpointObject),
      async handle(context, { params, body }) {
        const endpoint = await context.service.webhooks.update(
          callerOf(context),
          params.id,
          { url: body.url, eventTypes: body.event_types, description: body.description, enabled: body.enabled },
          { signal: context.signal },
        )
        return data(endpointToWire(endpoint))
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/:id/rotate-secret`,
      auth: auth.write,
      summary: 'Rotate a webhook endpoint’s signing secret',
      tags,
      description:
        'Answers the endpoint with its new secret, shown only here. During the grace period the operator set (24 hours unless configured; `previous_secret_expires_at`), each delivery is signed by the old and the new secret (`webhook-signature: v1,<new> v1,<old>`), so a receiver verifying with either accepts it; then by the new one only. Rotating again within the grace period drops the oldest secret.',
      request: byId,
      responses: okData(CreatedWebhookEndpointObject, 'Rotated'),
      async handle(context, { params }) {
        const { endpoint, secret } = await context.service.webhooks.rotateSecret(callerOf(context), params.id, {
          signal: context.signal,
        })
        return data({ ...endpointToWire(endpoint), secret })
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${base}/:id`,
      auth: auth.write,
      summary: 'Delete a webhook endpoint',
      tags,
      description: 'Its queued deliveries are dropped with it.',
      request: byId,
      responses: okNull('Deleted'),
      async handle(context, { params }) {
        await context.service.webhooks.remove(callerOf(context), params.id, { signal: context.signal })
        return data(null)
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/:id/deliveries`,
      auth: auth.read,
      summary: 'A webhook endpoint’s deliveries',
      tags,
      description: 'Newest first: each event sent to the endpoint, its status, attempts, last answer and next attempt.',
      request: { ...byId, query: WebhookPageQuery },
      responses: okData(WebhookDeliveryList),
      async handle(context, { params, query }) {
        const page = await context.service.webhooks.deliveries(
          callerOf(context),
          params.id,
          { limit: query.limit, pageToken: query.pageToken },
          { signal: context.signal },
        )
        return data({ deliveries: page.items.map(deliveryToWire), next_page_token: page.nextPageToken })
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/:id/test`,
      auth: auth.write,
      summary: 'Send a test event',
      tags,
      description: 'Queues a `webhook.test` event to the endpoint, delivered (and retried) like any other.',
      request: byId,
      responses: okData(WebhookDeliveryObject, 'Queued', '202'),
      async handle(context, { params }) {
        const delivery = await context.service.webhooks.test(callerOf(context), params.id, { signal: context.signal })
        return data(deliveryToWire(delivery), 202)
      },
    }),
  ]
}

/**
 * The operator on one tenant's endpoints: it sees them with their state and can disable one (say, an
 * endpoint hammering a third party) or enable one again (one the tenant cannot mend itself, or one
 * Pinfold disabled for failing). Each change is in the tenant's audit log with the operator as actor.
 * An id that is not one of that tenant's endpoints is a 404, as is a tenant the registry does not know.
 */
const tenantWebhookRoutes = (() => {
  const base = '/admin/v1/tenants/:tenantId/webhooks'
  const tags = ['Admin']
  const operatorOn = ({ operator }: RequestContext, tenantId: string): WebhookCaller => ({
    kind: 'operator',
    operator: operator!,
    tenantId,
  })
  const byId = { params: { ...WebhookTenantParams, ...WebhookIdParams } }
  return [
    defineRoute({
      method: 'GET',
      path: base,
      auth: 'operator',
      summary: 'A tenant’s webhook endpoints',
      tags,
      description:
        'Newest first, each with its state: `enabled`, `disabled_at`, `disabled_reason` and `failing_since` (the start of its failing streak).',
      request: { params: WebhookTenantParams, query: WebhookPageQuery },
      responses: okData(WebhookEndpointList),
      async handle(context, { params, query }) {
        const page = await context.service.webhooks.list(
          operatorOn(context, params.tenantId),
          { limit: query.limit, pageToken: query.pageToken },
          { signal: context.signal },
        )
        return data({ endpoints: page.items.map(endpointToWire), next_page_token: page.nextPageToken })
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/:id/enable`,
      auth: 'operator',
      summary: 'Enable a tenant’s webhook endpoint',
      tags,
      description:
        'As the tenant’s `PATCH` with `enabled: true`: its queued deliveries are sent again and its failing streak starts over. Enabling an enabled endpoint changes nothing. Recorded in the tenant’s audit log as `endpoint.enabled` (actor: the operator).',
      request: byId,
      responses: okData(WebhookEndpointObject, 'Enabled'),
      async handle(context, { params }) {
        const caller = operatorOn(context, params.tenantId)
        const endpoint = await context.service.webhooks.update(
          caller,
          params.id,
          { enabled: true },
          {
            signal: context.signal,
          },
        )
        return data(endpointToWire(endpoint))
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/:id/disable`,
      auth: 'operator',
      summary: 'Disable a tenant’s webhook endpoint',
      tags,
      description:
        'Nothing is sent to it until it is enabled again (by the tenant or the operator); its queued deliveries wait. `disabled_reason` reads `disabled by the operator`, followed by the `reason` given. Disabling a disabled endpoint changes nothing. Recorded in the tenant’s audit log as `endpoint.disabled` (actor: the operator), which the tenant’s endpoints subscribed to it receive.',
      request: { ...byId, body: WebhookDisableBody },
      responses: okData(WebhookEndpointObject, 'Disabled'),
      async handle(context, { params, body }) {
        const caller = operatorOn(context, params.tenantId)
        const update = { enabled: false, reason: body.reason }
        return data(
          endpointToWire(await context.service.webhooks.update(caller, params.id, update, { signal: context.signal })),
        )
      },
    }),
  ]
})()

export const webhookRoutes = [
  ...webhookRoutesAt('/v3/webhooks', { read: 'org:read', write: 'org:write' }, ['Webhooks'], ({ actor }) => ({
    kind: 'tenant',
    actor,
  })),
  ...webhookRoutesAt('/admin/v1/webhooks', { read: 'operator', write: 'operator' }, ['Admin'], ({ operator }) => ({
    kind: 'operator',
    operator: operator!,
    tenantId: null,
  })),
  ...tenantWebhookRoutes,
]
