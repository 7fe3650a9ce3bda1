import type {
  CallOptions,
  WebhookAttemptOutcome,
  WebhookDeliveryRecord,
  WebhookPostResult,
  WebhookTransport,
} from '@pinfold/interface'
import { Webhook } from 'standardwebhooks'
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
  let result: WebhookPostResult | undefined
  try {
    result = await attempt(settings, delivery, transport, options)
  } catch (error) {
    // stopped mid-attempt (the process is going): the delivery goes back, to be sent at once elsewhere
    if (options?.signal?.aborted) await records.webhooks.releaseWebhookDelivery(delivery.id, owner)
    throw error
  }
  // deleted since it was claimed: its deliveries went with it
  if (!result) return true
  const outcome = outcomeOf(delivery, result, settings)
  await records.webhooks.finishWebhookAttempt(delivery.id, owner, outcome)
  bounds.onAttempt?.(result.kind === 'refused' ? 'refused' : outcome.status === 'pending' ? 'retried' : outcome.status)
  return true
}

/** Signs and posts the claimed delivery; `undefined` when its endpoint is gone. The network's failures are results; it throws when aborted or when the store fails (the lease then runs out). */
async function attempt(
  { records, clock, webhooks: bounds }: DeliverySettings,
  delivery: WebhookDeliveryRecord,
  transport: WebhookTransport,
  options?: CallOptions,
): Promise<WebhookPostResult | undefined> {
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
    'webhook-signature': new Webhook(endpoint.secret).sign(delivery.event.id, sentAt, body),
  }
  try {
    return await transport.post(
      { url: endpoint.url, headers, body, timeoutMs: bounds.timeoutMs, maxResponseBytes: bounds.maxResponseBytes },
      { signal: options?.signal },
    )
  } catch (error) {
    if (options?.signal?.aborted) throw error
    return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) }
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
