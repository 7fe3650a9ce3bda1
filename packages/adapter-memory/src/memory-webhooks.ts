import {
  type EventRecord,
  endpointPatchWrite,
  type NewEvent,
  PinfoldError,
  throwIfAborted,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookEvent,
  type WebhookRecordStore,
} from '@pinfold/interface'
import { paginate } from './memory-paging.js'

/**
 * The journal as the webhooks see it: each event, oldest first, and whether it has been fanned out
 * yet (for the fan-out); and how a recorded write of theirs appends its events (it throws having
 * appended nothing for a malformed one).
 */
export interface MemoryEventJournal {
  events: Array<{ record: EventRecord; fannedOut: boolean }>
  appendEvents(events: readonly NewEvent[] | undefined): unknown
}

/**
 * Webhook endpoints and the outbox in Maps of their own; the fan-out reads and marks the shared
 * journal. Each method's checks and writes run without an await between them.
 */
export function memoryWebhookRecords(journal: MemoryEventJournal): WebhookRecordStore {
  const endpoints = new Map<string, WebhookEndpointRecord>()
  const deliveries = new Map<string, WebhookDeliveryRecord>()
  /** Each owner's last turn (`''` is the operator): the value of `turns` when a claim last went to it. */
  const lastServed = new Map<string, number>()
  let turns = 0
  const copy = <T>(value: T): T => structuredClone(value)
  const owned = (tenantId: string | null, id: string) => {
    const endpoint = endpoints.get(id)
    return endpoint && endpoint.tenantId === tenantId ? endpoint : undefined
  }
  const heldBy = (id: string, owner: string) => {
    const delivery = deliveries.get(id)
    return delivery?.status === 'delivering' && delivery.leaseOwner === owner ? delivery : undefined
  }
  const sameDelivery = (d: WebhookDeliveryRecord) =>
    [...deliveries.values()].some((o) => o.endpointId === d.endpointId && o.event.id === d.event.id)

  return {
    async createWebhookEndpoint(endpoint, options) {
      throwIfAborted(options?.signal)
      if (endpoints.has(endpoint.id)) throw new PinfoldError('CONFLICT', `webhook endpoint ${endpoint.id} exists`)
      const cap = options?.maxPerOwner
      if (cap !== undefined && [...endpoints.values()].filter((e) => e.tenantId === endpoint.tenantId).length >= cap) {
        throw new PinfoldError('RATE_LIMITED', `at most ${cap} webhook endpoints`)
      }
      journal.appendEvents(options?.events)
      endpoints.set(endpoint.id, copy(endpoint))
    },

    async getWebhookEndpoint(tenantId, id, options) {
      throwIfAborted(options?.signal)
      const endpoint = owned(tenantId, id)
      return endpoint && copy(endpoint)
    },

    async listWebhookEndpoints(tenantId, page, options) {
      throwIfAborted(options?.signal)
      return paginate(
        [...endpoints.values()].filter((e) => e.tenantId === tenantId),
        page,
        copy,
      )
    },

    async updateWebhookEndpoint(tenantId, id, patch, updatedAt, options) {
      throwIfAborted(options?.signal)
      const endpoint = owned(tenantId, id)
      if (!endpoint) return undefined
      const write = endpointPatchWrite(patch, endpoint.enabled, options)
      if (!write) return copy(endpoint)
      journal.appendEvents(write.events)
      if (patch.url !== undefined) endpoint.url = patch.url
      if (patch.eventTypes !== undefined) endpoint.eventTypes = [...patch.eventTypes]
      if (patch.description !== undefined) endpoint.description = patch.description
      if (write.toggles) {
        const enabled = patch.enabled === true
        endpoint.enabled = enabled
        endpoint.disabledAt = enabled ? null : new Date(updatedAt)
        endpoint.disabledReason = enabled ? null : (patch.disabledReason ?? 'disabled by its owner')
        if (enabled) endpoint.failingSince = null
      }
      endpoint.updatedAt = new Date(updatedAt)
      return copy(endpoint)
    },

    async deleteWebhookEndpoint(tenantId, id, options) {
      throwIfAborted(options?.signal)
      if (!owned(tenantId, id)) return false
      journal.appendEvents(options?.events)
      endpoints.delete(id)
      for (const [key, d] of deliveries) if (d.endpointId === id) deliveries.delete(key)
      return true
    },

    async fanOutWebhookEvents(limit, now, options) {
      throwIfAborted(options?.signal)
      // the journal is appended in seq order, so the first entries not fanned out are the oldest
      const taken = journal.events.filter((entry) => !entry.fannedOut).slice(0, limit)
      for (const entry of taken) {
        const event = webhookEvent(entry.record)
        for (const endpoint of endpoints.values()) {
          const ownerMatches = endpoint.tenantId === null || endpoint.tenantId === event.tenantId
          if (!endpoint.enabled || !ownerMatches || !endpoint.eventTypes.includes(event.type)) continue
          const delivery = newDelivery(crypto.randomUUID(), endpoint, event, now)
          if (!sameDelivery(delivery)) deliveries.set(delivery.id, delivery)
        }
        entry.fannedOut = true
      }
      return taken.length
    },

    async addWebhookDelivery(delivery, options) {
      throwIfAborted(options?.signal)
      if (deliveries.has(delivery.id) || sameDelivery(delivery)) {
        throw new PinfoldError('CONFLICT', `event ${delivery.event.id} is queued for this endpoint already`)
      }
      deliveries.set(delivery.id, copy(delivery))
    },

    async listWebhookDeliveries(tenantId, endpointId, page, options) {
      throwIfAborted(options?.signal)
      if (!owned(tenantId, endpointId)) return { items: [], hasMore: false }
      return paginate(
        [...deliveries.values()].filter((d) => d.endpointId === endpointId),
        page,
        copy,
      )
    },

    async claimWebhookDelivery(owner, now, leaseMs, options) {
      throwIfAborted(options?.signal)
      const at = now.getTime()
      const runningByOwner = new Map<string, number>()
      const runningByEndpoint = new Map<string, number>()
      for (const d of deliveries.values()) {
        if (d.status !== 'delivering' || (d.leaseExpiresAt?.getTime() ?? 0) <= at) continue
        const key = d.tenantId ?? ''
        runningByOwner.set(key, (runningByOwner.get(key) ?? 0) + 1)
        runningByEndpoint.set(d.endpointId, (runningByEndpoint.get(d.endpointId) ?? 0) + 1)
      }
      const tenantCap = options?.maxRunningPerTenant ?? Number.POSITIVE_INFINITY
      const endpointCap = options?.maxRunningPerEndpoint ?? Number.POSITIVE_INFINITY
      const ownerOf = (d: WebhookDeliveryRecord) => d.tenantId ?? ''
      const running = (d: WebhookDeliveryRecord) => runningByOwner.get(ownerOf(d)) ?? 0
      const served = (d: WebhookDeliveryRecord) => lastServed.get(ownerOf(d)) ?? 0
      const due = (d: WebhookDeliveryRecord) =>
        endpoints.get(d.endpointId)?.enabled === true &&
        ((d.status === 'pending' && (d.nextAttemptAt?.getTime() ?? 0) <= at) ||
          (d.status === 'delivering' && (d.leaseExpiresAt?.getTime() ?? 0) <= at))
      const byDue = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) =>
        (a.nextAttemptAt?.getTime() ?? 0) - (b.nextAttemptAt?.getTime() ?? 0) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
      // each owner's earliest due delivery whose endpoint has room, then the owners in turn order
      const first = new Map<string, WebhookDeliveryRecord>()
      for (const d of deliveries.values()) {
        if (!due(d) || (runningByEndpoint.get(d.endpointId) ?? 0) >= endpointCap) continue
        const seen = first.get(ownerOf(d))
        if (!seen || byDue(d, seen) < 0) first.set(ownerOf(d), d)
      }
      const chosen = [...first.values()]
        .filter((d) => running(d) < tenantCap)
        .sort((a, b) => running(a) - running(b) || served(a) - served(b) || byDue(a, b))[0]
      if (!chosen) return undefined
      lastServed.set(ownerOf(chosen), ++turns)
      chosen.status = 'delivering'
      chosen.leaseOwner = owner
      chosen.leaseExpiresAt = new Date(at + leaseMs)
      chosen.attempts += 1
      return copy(chosen)
    },

    async finishWebhookAttempt(id, owner, outcome, options) {
      throwIfAborted(options?.signal)
      const delivery = heldBy(id, owner)
      if (!delivery) return false
      delivery.status = outcome.status
      delivery.lastAttemptAt = new Date(outcome.at)
      delivery.lastStatusCode = outcome.statusCode
      delivery.lastError = outcome.status === 'delivered' ? null : outcome.error
      delivery.nextAttemptAt = outcome.status === 'pending' ? new Date(outcome.nextAttemptAt) : null
      delivery.leaseOwner = null
      delivery.leaseExpiresAt = null
      const endpoint = endpoints.get(delivery.endpointId)
      if (endpoint) {
        endpoint.failingSince = outcome.status === 'delivered' ? null : (endpoint.failingSince ?? new Date(outcome.at))
      }
      return true
    },

    async disableFailingWebhookEndpoint(id, disable, options) {
      throwIfAborted(options?.signal)
      const endpoint = endpoints.get(id)
      if (!endpoint?.enabled || !endpoint.failingSince || endpoint.failingSince > disable.failingBefore) {
        return undefined
      }
      journal.appendEvents(options?.events)
      endpoint.enabled = false
      endpoint.disabledAt = new Date(disable.at)
      endpoint.disabledReason = disable.reason
      endpoint.updatedAt = new Date(disable.at)
      return copy(endpoint)
    },

    async rotateWebhookSecret(tenantId, id, secret, previousExpiresAt, updatedAt, options) {
      throwIfAborted(options?.signal)
      const endpoint = owned(tenantId, id)
      if (!endpoint) return undefined
      journal.appendEvents(options?.events)
      endpoint.previousSecret = endpoint.secret
      endpoint.previousSecretExpiresAt = new Date(previousExpiresAt)
      endpoint.secret = secret
      endpoint.updatedAt = new Date(updatedAt)
      return copy(endpoint)
    },

    async releaseWebhookDelivery(id, owner, options) {
      throwIfAborted(options?.signal)
      const delivery = heldBy(id, owner)
      if (!delivery) return false
      delivery.status = 'pending'
      delivery.attempts -= 1
      delivery.leaseOwner = null
      delivery.leaseExpiresAt = null
      return true
    },

    async pruneWebhookDeliveries(before, limit, options) {
      throwIfAborted(options?.signal)
      const ended = [...deliveries.values()]
        .filter((d) => (d.status === 'delivered' || d.status === 'failed') && d.lastAttemptAt! < before)
        .sort((a, b) => a.lastAttemptAt!.getTime() - b.lastAttemptAt!.getTime())
        .slice(0, limit)
      for (const d of ended) deliveries.delete(d.id)
      return ended.length
    },
  }
}

/** The event as the outbox keeps it: what a delivery carries, without the journal's own `seq`. */
function webhookEvent(e: EventRecord): WebhookEvent {
  return {
    id: e.id,
    type: e.type,
    tenantId: e.tenantId,
    at: e.at,
    actor: { ...e.actor },
    requestId: e.requestId,
    target: { ...e.target },
    data: e.data,
  }
}

function newDelivery(
  id: string,
  endpoint: WebhookEndpointRecord,
  event: WebhookEvent,
  now: Date,
): WebhookDeliveryRecord {
  return {
    id,
    endpointId: endpoint.id,
    tenantId: endpoint.tenantId,
    event: structuredClone(event),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: new Date(now),
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    createdAt: new Date(now),
  }
}
