import {
  type CallOptions,
  DEPLOYMENT_TENANT_ID,
  type WebhookAttemptOutcome,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookPostResult,
  type WebhookTransport,
} from '@pinfold/interface'
import { Webhook } from 'standardwebhooks'
import { systemEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import { retryDelayMs } from './backoff.js'
import { webhookBody } from './payload.js'

export type DeliverySettings = Pick<ServiceContext, 'records' | 'clock' | 'webhooks'> & {
  transport: () => WebhookTransport
  /** This process's name on the leases it takes. */
  owner: string
}

/**
 * One attempt of the next due delivery: claim it (fair turns, per-endpoint cap), sign the body
 * with the endpoint's secret (Standard Webhooks, by its library), post it through the transport
 * (which resolves, checks and connects to the checked address), then record what came of it. A
 * 2xx delivers; a refused address fails for good (retrying cannot change the operator's policy,
 * and the reason is kept for the owner); anything else is retried after the backoff until
 * `maxAttempts`. Aborted mid-attempt (the process stops), the delivery goes back to the outbox.
 */
export async function deliverNext(settings: DeliverySettings, options?: CallOptions): Promise<boolean> {
  const { records, clock, webhooks: bounds, owner } = settings
  const transport = settings.transport()
  const delivery = await records.webhooks.claimWebhookDelivery(owner, clock.now(), bounds.leaseMs, {
    maxRunningPerTenant: bounds.maxRunningPerTenant,
    maxRunningPerEndpoint: bounds.maxRunningPerEndpoint,
    signal: options?.signal,
  })
  if (!delivery) return false
  let sent: { endpoint: WebhookEndpointRecord; result: WebhookPostResult } | undefined
  try {
    sent = await attempt(settings, delivery, transport, options)
  } catch (error) {
    // stopped mid-attempt (the process is going): the delivery goes back, to be sent at once elsewhere
    if (options?.signal?.aborted) await records.webhooks.releaseWebhookDelivery(delivery.id, owner)
    throw error
  }
  // deleted since it was claimed: its deliveries went with it
  if (!sent) return true
  const { endpoint, result } = sent
  const outcome = outcomeOf(delivery, result, settings)
  const finished = await records.webhooks.finishWebhookAttempt(delivery.id, owner, outcome)
  bounds.onAttempt?.(result.kind === 'refused' ? 'refused' : outcome.status === 'pending' ? 'retried' : outcome.status)
  if (finished && outcome.status !== 'delivered') await disableIfFailing(settings, endpoint, outcome)
  return true
}

/**
 * After a failed attempt: an endpoint no attempt has reached for `disableAfterMs` is disabled, in
 * one step with its `endpoint.disabled` entry (the store decides on the failing streak it keeps,
 * so of several workers failing at once one disables it and one entry is written).
 */
async function disableIfFailing(
  { records, clock, webhooks: bounds }: DeliverySettings,
  endpoint: WebhookEndpointRecord,
  outcome: Extract<WebhookAttemptOutcome, { error: string }>,
): Promise<void> {
  if (bounds.disableAfterMs === 0) return
  const at = clock.now()
  const reason = `every attempt failed for ${duration(bounds.disableAfterMs)} (the last: ${outcome.error})`
  const event = systemEvent(
    endpoint.tenantId ?? DEPLOYMENT_TENANT_ID,
    { type: 'endpoint.disabled', target: { kind: 'webhook', id: endpoint.id }, data: { url: endpoint.url, reason } },
    'webhooks',
  )
  await records.webhooks.disableFailingWebhookEndpoint(
    endpoint.id,
    { failingBefore: new Date(at.getTime() - bounds.disableAfterMs), at, reason },
    { events: [event] },
  )
}

/** `5 days`, `36 hours`, `90 minutes`, `45 seconds`: the largest unit that divides it. */
function duration(ms: number): string {
  const units: [string, number][] = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1_000],
  ]
  for (const [unit, size] of units) {
    if (ms % size === 0) return `${ms / size} ${unit}${ms === size ? '' : 's'}`
  }
  return `${ms} ms`
}

/**
 * The `webhook-signature` header: by the endpoint's secret, and during a rotation's grace period by
 * the one it replaced too, space-separated as Standard Webhooks allows, so a receiver verifying with
 * either secret accepts it.
 */
export function signatureHeader(endpoint: WebhookEndpointRecord, id: string, at: Date, body: string): string {
  const signatures = [new Webhook(endpoint.secret).sign(id, at, body)]
  const previous = endpoint.previousSecret
  if (previous && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > at) {
    signatures.push(new Webhook(previous).sign(id, at, body))
  }
  return signatures.join(' ')
}

/** Signs and posts the claimed delivery; `undefined` when its endpoint is gone. The network's failures are results; it throws when aborted or when the store fails (the lease then runs out). */
async function attempt(
  { records, clock, webhooks: bounds }: DeliverySettings,
  delivery: WebhookDeliveryRecord,
  transport: WebhookTransport,
  options?: CallOptions,
): Promise<{ endpoint: WebhookEndpointRecord; result: WebhookPostResult } | undefined> {
  const endpoint = await records.webhooks.getWebhookEndpoint(delivery.tenantId, delivery.endpointId, {
    signal: options?.signal,
  })
  if (!endpoint) return undefined
  const body = webhookBody(delivery.event)
  const sentAt = clock.now()
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Pinfold-Webhooks/1',
    'webhook-id': delivery.event.id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signatureHeader(endpoint, delivery.event.id, sentAt, body),
  }
  try {
    const result = await transport.post(
      { url: endpoint.url, headers, body, timeoutMs: bounds.timeoutMs, maxResponseBytes: bounds.maxResponseBytes },
      { signal: options?.signal },
    )
    return { endpoint, result }
  } catch (error) {
    if (options?.signal?.aborted) throw error
    return { endpoint, result: { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) } }
  }
}

function outcomeOf(
  delivery: WebhookDeliveryRecord,
  result: WebhookPostResult,
  { clock, webhooks: bounds }: DeliverySettings,
): WebhookAttemptOutcome {
  const at = clock.now()
  if (result.kind === 'answered' && result.status >= 200 && result.status < 300) {
    return { status: 'delivered', statusCode: result.status, at }
  }
  const statusCode = result.kind === 'answered' ? result.status : null
  const error = result.kind === 'answered' ? `the endpoint answered HTTP ${result.status}` : result.reason
  if (result.kind === 'refused' || delivery.attempts >= bounds.maxAttempts) {
    return { status: 'failed', statusCode, error, at }
  }
  const nextAttemptAt = new Date(at.getTime() + retryDelayMs(delivery.attempts, bounds.backoff))
  return { status: 'pending', statusCode, error, at, nextAttemptAt }
}
