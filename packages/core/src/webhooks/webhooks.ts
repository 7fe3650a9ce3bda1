import {
  type CallOptions,
  invalid,
  type NewEvent,
  PinfoldError,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookTransport,
} from '@pinfold/interface'
import { nextPageToken, resolvePage } from '../common/pagination.js'
import type { ServiceContext } from '../service/context.js'
import type {
  WebhookCaller,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointUpdate,
  WebhookOperations,
} from './api.js'
import { disabledReason, endpointEvent, ownerOf } from './caller.js'
import { deliverNext } from './deliver.js'
import { validateDescription, validateEndpointUrl, validateEventTypes, validateReason } from './endpoint-input.js'
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

  /**
   * Whose endpoints the caller acts on; the operator naming a tenant the registry does not know is
   * answered as for any unknown id.
   */
  async function ownerFor(caller: WebhookCaller, options?: CallOptions) {
    transport()
    const owner = ownerOf(caller)
    if (caller.kind === 'operator' && owner !== null && !(await records.tenants.getTenant(owner, options))) {
      throw new PinfoldError('NOT_FOUND', 'tenant not found')
    }
    return owner
  }

  async function owned(caller: WebhookCaller, id: string, options?: CallOptions): Promise<WebhookEndpointRecord> {
    const endpoint = await records.webhooks.getWebhookEndpoint(await ownerFor(caller, options), id, options)
    if (!endpoint) throw notFound()
    return endpoint
  }

  return {
    async create(caller, input, options) {
      const who = await ownerFor(caller, options)
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
      const event = endpointEvent(caller, record.id, 'endpoint.created', { url, eventTypes, description })
      await records.webhooks.createWebhookEndpoint(record, {
        ...options,
        maxPerOwner: bounds.maxEndpointsPerOwner,
        events: [event],
      })
      return { endpoint: shown(record), secret }
    },

    async list(caller, query, options) {
      const who = await ownerFor(caller, options)
      const page = await records.webhooks.listWebhookEndpoints(who, resolvePage(query), options)
      return { items: page.items.map(shown), nextPageToken: nextPageToken(page.items, page.hasMore) }
    },

    async get(caller, id, options) {
      return shown(await owned(caller, id, options))
    },

    async update(caller, id, update, options) {
      const t = transport()
      const url = update?.url === undefined ? undefined : validateEndpointUrl(update.url)
      const eventTypes = update.eventTypes === undefined ? undefined : validateEventTypes(update.eventTypes)
      const description = update.description === undefined ? undefined : validateDescription(update.description)
      if (update.enabled !== undefined && typeof update.enabled !== 'boolean')
        throw invalid('enabled must be a boolean')
      const reason = update.reason === undefined ? undefined : validateReason(update.reason)
      const current = await owned(caller, id, options)
      if (url !== undefined) await checkReachable(url, t, options)
      const change = { url, eventTypes, description, enabled: update.enabled, reason }
      const { events, stateEvents } = updateEvents(caller, current, change)
      // nothing to change and nothing to record: the endpoint as it is, its updatedAt untouched
      if (events.length === 0 && stateEvents.length === 0) return shown(current)
      const patch = {
        url,
        eventTypes,
        description,
        enabled: update.enabled,
        disabledReason: disabledReason(caller, reason),
      }
      const who = ownerOf(caller)
      const updated = await records.webhooks.updateWebhookEndpoint(who, id, patch, clock.now(), {
        ...options,
        events,
        stateEvents,
      })
      if (!updated) throw notFound()
      return shown(updated)
    },

    async rotateSecret(caller, id, options) {
      const who = await ownerFor(caller, options)
      const now = clock.now()
      const secret = newWebhookSecret()
      const previousExpiresAt = new Date(now.getTime() + bounds.secretGraceMs)
      // when the old secret stops signing is no secret; neither secret is ever in the log
      const event = endpointEvent(caller, id, 'endpoint.secret_rotated', {
        previousSecretExpiresAt: previousExpiresAt.toISOString(),
      })
      const rotated = await records.webhooks.rotateWebhookSecret(who, id, secret, previousExpiresAt, now, {
        ...options,
        events: [event],
      })
      if (!rotated) throw notFound()
      return { endpoint: shown(rotated), secret }
    },

    async remove(caller, id, options) {
      // read first for the entry's URL: what the endpoint was is gone with it
      const { url } = await owned(caller, id, options)
      const event = endpointEvent(caller, id, 'endpoint.deleted', { url })
      const deleted = await records.webhooks.deleteWebhookEndpoint(ownerOf(caller), id, { ...options, events: [event] })
      if (!deleted) throw notFound()
    },

    async deliveries(caller, id, query, options) {
      const who = (await owned(caller, id, options)).tenantId
      const page = await records.webhooks.listWebhookDeliveries(who, id, resolvePage(query), options)
      return { items: page.items.map(shownDelivery), nextPageToken: nextPageToken(page.items, page.hasMore) }
    },

    async test(caller, id, options) {
      const endpoint = await owned(caller, id, options)
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

/**
 * The entries a patch records: `endpoint.updated` naming the fields given (url, event types,
 * description), and `endpoint.enabled` or `endpoint.disabled` when it changes the state (as the
 * automatic disable's entry, with the reason). Giving the state it has already records nothing.
 * The state read here may be stale (another call may toggle it meanwhile), so the toggle's entry
 * goes as a state event: the store appends it only if the state still differs when it writes, and
 * of two concurrent identical toggles only one records.
 */
function updateEvents(
  caller: WebhookCaller,
  current: WebhookEndpointRecord,
  change: WebhookEndpointUpdate,
): { events: NewEvent[]; stateEvents: NewEvent[] } {
  const events: NewEvent[] = []
  const stateEvents: NewEvent[] = []
  const { url, eventTypes, description, enabled, reason } = change
  const fields = Object.fromEntries(
    Object.entries({ url, eventTypes, description }).filter(([, value]) => value !== undefined),
  )
  if (Object.keys(fields).length > 0) events.push(endpointEvent(caller, current.id, 'endpoint.updated', fields))
  if (enabled !== undefined && enabled !== current.enabled) {
    const facts = enabled
      ? { url: url ?? current.url }
      : { url: url ?? current.url, reason: disabledReason(caller, reason) }
    stateEvents.push(endpointEvent(caller, current.id, enabled ? 'endpoint.enabled' : 'endpoint.disabled', facts))
  }
  return { events, stateEvents }
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
