import {
  type CallOptions,
  invalid,
  PinfoldError,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookTransport,
} from '@pinfold/interface'
import { nextPageToken, resolvePage } from '../common/pagination.js'
import type { ServiceContext } from '../service/context.js'
import type { WebhookDelivery, WebhookEndpoint, WebhookOperations, WebhookOwner } from './api.js'
import { deliverNext } from './deliver.js'
import { validateDescription, validateEndpointUrl, validateEventTypes } from './endpoint-input.js'
import { newWebhookSecret } from './secret.js'

export type WebhookFeatureSettings = Pick<ServiceContext, 'records' | 'clock' | 'ids' | 'features' | 'webhooks'>

/** Rows one prune statement deletes: short transactions, however large the backlog. */
const PRUNE_BATCH = 1_000

const notFound = () => new PinfoldError('NOT_FOUND', 'webhook endpoint not found')

/** `FileService.webhooks` (see `api.ts`). */
export function createWebhookOperations(settings: WebhookFeatureSettings): WebhookOperations {
  const { records, clock, ids, features, webhooks: bounds } = settings
  const transport = () => features.require('webhooks').webhookTransport
  // this process's name on its leases: unique per service, so a restarted process is a new owner
  const owner = `webhooks-${ids.recordId()}`

  /** Refuses a URL whose host resolves to an address the operator does not allow (DESIGN rule 17). */
  async function checkReachable(url: string, t: WebhookTransport, options?: CallOptions): Promise<void> {
    const check = await t.check(url, options)
    if (check.kind === 'refused') throw invalid(`url is not allowed: ${check.reason}`)
  }

  async function owned(who: WebhookOwner, id: string, options?: CallOptions): Promise<WebhookEndpointRecord> {
    transport()
    const endpoint = await records.webhooks.getWebhookEndpoint(who, id, options)
    if (!endpoint) throw notFound()
    return endpoint
  }

  return {
    async create(who, input, options) {
      const t = transport()
      const url = validateEndpointUrl(input?.url)
      const eventTypes = validateEventTypes(input.eventTypes)
      const description = validateDescription(input.description ?? '')
      await checkReachable(url, t, options)
      const now = clock.now()
      const secret = newWebhookSecret()
      const record: WebhookEndpointRecord = {
        id: ids.recordId(),
        tenantId: who,
        url,
        eventTypes,
        description,
        secret,
        previousSecret: null,
        previousSecretExpiresAt: null,
        enabled: true,
        disabledAt: null,
        disabledReason: null,
        failingSince: null,
        createdAt: now,
        updatedAt: now,
      }
      await records.webhooks.createWebhookEndpoint(record, { ...options, maxPerOwner: bounds.maxEndpointsPerOwner })
      return { endpoint: shown(record), secret }
    },

    async list(who, query, options) {
      transport()
      const page = await records.webhooks.listWebhookEndpoints(who, resolvePage(query), options)
      return { items: page.items.map(shown), nextPageToken: nextPageToken(page.items, page.hasMore) }
    },

    async get(who, id, options) {
      return shown(await owned(who, id, options))
    },

    async update(who, id, update, options) {
      const t = transport()
      const url = update?.url === undefined ? undefined : validateEndpointUrl(update.url)
      const eventTypes = update.eventTypes === undefined ? undefined : validateEventTypes(update.eventTypes)
      const description = update.description === undefined ? undefined : validateDescription(update.description)
      if (update.enabled !== undefined && typeof update.enabled !== 'boolean')
        throw invalid('enabled must be a boolean')
      await owned(who, id, options)
      if (url !== undefined) await checkReachable(url, t, options)
      const patch = { url, eventTypes, description, enabled: update.enabled }
      const updated = await records.webhooks.updateWebhookEndpoint(who, id, patch, clock.now(), options)
      if (!updated) throw notFound()
      return shown(updated)
    },

    async rotateSecret(who, id, options) {
      transport()
      const now = clock.now()
      const secret = newWebhookSecret()
      const previousExpiresAt = new Date(now.getTime() + bounds.secretGraceMs)
      const rotated = await records.webhooks.rotateWebhookSecret(who, id, secret, previousExpiresAt, now, options)
      if (!rotated) throw notFound()
      return { endpoint: shown(rotated), secret }
    },

    async remove(who, id, options) {
      transport()
      if (!(await records.webhooks.deleteWebhookEndpoint(who, id, options))) throw notFound()
    },

    async deliveries(who, id, query, options) {
      await owned(who, id, options)
      const page = await records.webhooks.listWebhookDeliveries(who, id, resolvePage(query), options)
      return { items: page.items.map(shownDelivery), nextPageToken: nextPageToken(page.items, page.hasMore) }
    },

    async test(who, id, options) {
      const endpoint = await owned(who, id, options)
      const now = clock.now()
      const delivery: WebhookDeliveryRecord = {
        id: ids.recordId(),
        endpointId: endpoint.id,
        tenantId: endpoint.tenantId,
        event: {
          id: ids.recordId(),
          type: 'webhook.test',
          tenantId: endpoint.tenantId ?? '',
          at: now,
          actor: { kind: endpoint.tenantId === null ? 'operator' : 'tenant', id: endpoint.tenantId ?? 'operator' },
          requestId: null,
          target: { kind: 'webhook', id: endpoint.id },
          data: {},
        },
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        lastAttemptAt: null,
        lastStatusCode: null,
        lastError: null,
        leaseOwner: null,
        leaseExpiresAt: null,
        createdAt: now,
      }
      await records.webhooks.addWebhookDelivery(delivery, options)
      return shownDelivery(delivery)
    },

    async fanOut(options) {
      transport()
      return records.webhooks.fanOutWebhookEvents(bounds.fanOutBatch, clock.now(), options)
    },

    async prune(options) {
      transport()
      if (bounds.retentionMs === 0) return 0
      const before = new Date(clock.now().getTime() - bounds.retentionMs)
      let pruned = 0
      for (;;) {
        const batch = await records.webhooks.pruneWebhookDeliveries(before, PRUNE_BATCH, options)
        pruned += batch
        if (batch < PRUNE_BATCH) return pruned
      }
    },

    deliverNext: (options) => deliverNext({ records, clock, webhooks: bounds, owner, transport }, options),
  }
}

/** Everything but the secrets (the end of the last rotation's grace period stays: it is no secret). */
function shown({ secret: _, previousSecret: __, ...endpoint }: WebhookEndpointRecord): WebhookEndpoint {
  return endpoint
}

function shownDelivery(d: WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: d.id,
    eventId: d.event.id,
    eventType: d.event.type,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    lastAttemptAt: d.lastAttemptAt,
    nextAttemptAt: d.nextAttemptAt,
    createdAt: d.createdAt,
  }
}
