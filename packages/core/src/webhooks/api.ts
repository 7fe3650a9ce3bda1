/** `FileService.webhooks`: the contract (its operations are in `webhooks.ts`). */

import type { Actor, CallOptions, WebhookDeliveryStatus, WebhookEndpointRecord } from '@pinfold/interface'
import type { OperatorActor } from '../auth/operator-tokens.js'
import type { PageQuery } from '../common/pagination.js'

/** Whose endpoints: a tenant's id, or `null` for the operator's own (which receive every tenant's events). */
export type WebhookOwner = string | null

/**
 * Who calls, and so whose endpoints it acts on and who the audit log names for a change: a tenant's
 * token or API key acts on the tenant's own endpoints; the operator on its own (`tenantId: null`) or
 * on one tenant's (the admin routes under `/admin/v1/tenants/{id}/webhooks`: a tenant the registry
 * does not know is `NOT_FOUND`).
 */
export type WebhookCaller =
  | { kind: 'tenant'; actor: Actor }
  | { kind: 'operator'; operator: OperatorActor; tenantId: string | null }

/**
 * An endpoint as it is shown: everything but its signing secrets (`previousSecretExpiresAt` says
 * until when a rotated-out secret still signs).
 */
export type WebhookEndpoint = Omit<WebhookEndpointRecord, 'secret' | 'previousSecret'>

export interface WebhookEndpointInput {
  /** `http:` or `https:`, no credentials; its host must not resolve to an address the operator refuses. */
  url: string
  /** At least one of `WEBHOOK_EVENT_TYPES`. */
  eventTypes: string[]
  description?: string | undefined
}

export interface WebhookEndpointUpdate {
  url?: string | undefined
  eventTypes?: string[] | undefined
  description?: string | undefined
  enabled?: boolean | undefined
  /**
   * Why, when `enabled: false` disables it: the operator's words to a tenant (at most 500
   * characters), recorded as `disabled by the operator: <reason>`. An owner's own disable is
   * `disabled by its owner`.
   */
  reason?: string | undefined
}

export interface CreatedWebhookEndpoint {
  endpoint: WebhookEndpoint
  /** The signing secret (`whsec_…`): shown once, at creation or rotation. */
  secret: string
}

/** One event's delivery to one endpoint, as its owner sees it. */
export interface WebhookDelivery {
  id: string
  eventId: string
  eventType: string
  status: WebhookDeliveryStatus
  attempts: number
  lastStatusCode: number | null
  lastError: string | null
  lastAttemptAt: Date | null
  nextAttemptAt: Date | null
  createdAt: Date
}

export interface WebhookPage<T> {
  items: T[]
  /** The token of the next page, `""` on the last. */
  nextPageToken: string
}

/**
 * Every change of an endpoint (create, update, enable, disable, rotate, delete) is recorded in its
 * owner's audit log in the same transaction (`endpoint.created`, `endpoint.updated`,
 * `endpoint.enabled`, `endpoint.disabled`, `endpoint.secret_rotated`, `endpoint.deleted`; target
 * `{ kind: 'webhook', id }`; never a secret), naming the caller.
 */
export interface WebhookOperations {
  /**
   * Registers an endpoint. `INVALID_INPUT` for a bad URL, scheme, event type or description, and
   * for a host that resolves to an address the operator refuses (loopback, private, link-local…);
   * `RATE_LIMITED` past the owner's endpoint cap; `UNAVAILABLE` without a webhook transport.
   */
  create(caller: WebhookCaller, input: WebhookEndpointInput, options?: CallOptions): Promise<CreatedWebhookEndpoint>
  /** The owner's endpoints, newest first. */
  list(caller: WebhookCaller, page: PageQuery, options?: CallOptions): Promise<WebhookPage<WebhookEndpoint>>
  /** `NOT_FOUND` for an unknown id or another owner's. */
  get(caller: WebhookCaller, id: string, options?: CallOptions): Promise<WebhookEndpoint>
  /**
   * Changes what is given (a new URL is checked as at creation); `NOT_FOUND`, `INVALID_INPUT`.
   * `enabled: true` re-enables an endpoint disabled by its owner or for failing (its queued
   * deliveries are sent again, its failing streak starts over); `enabled: false` disables it.
   * A patch that gives neither a field nor a change of state writes nothing and records nothing.
   */
  update(
    caller: WebhookCaller,
    id: string,
    update: WebhookEndpointUpdate,
    options?: CallOptions,
  ): Promise<WebhookEndpoint>
  /**
   * Gives the endpoint a new signing secret, shown once in the answer. For `secretGraceMs` the
   * old one still signs too (each delivery carries both signatures), so a receiver can switch
   * without a delivery failing verification. `NOT_FOUND`.
   */
  rotateSecret(caller: WebhookCaller, id: string, options?: CallOptions): Promise<CreatedWebhookEndpoint>
  /** Deletes the endpoint and its deliveries; `NOT_FOUND`. */
  remove(caller: WebhookCaller, id: string, options?: CallOptions): Promise<void>
  /** The endpoint's deliveries, newest first; `NOT_FOUND` for an unknown endpoint. */
  deliveries(
    caller: WebhookCaller,
    id: string,
    page: PageQuery,
    options?: CallOptions,
  ): Promise<WebhookPage<WebhookDelivery>>
  /**
   * Queues a `webhook.test` event to the endpoint (sent by the workers like any other; to a
   * disabled endpoint once it is enabled again); `NOT_FOUND`.
   */
  test(caller: WebhookCaller, id: string, options?: CallOptions): Promise<WebhookDelivery>
  /**
   * Moves events of the journal not yet fanned out into the outbox (one batch); returns how many
   * it took. Run by the server's webhook loop.
   */
  fanOut(options?: CallOptions): Promise<number>
  /**
   * Claims the next due delivery of an enabled endpoint (fairly across owners) and sends it once:
   * signed, to the checked address, within the time and size bounds; records the answer and
   * schedules the retry. An endpoint whose attempts have all failed for `disableAfterMs` is
   * disabled (`endpoint.disabled` in the audit log). False when none was due. Aborting gives the
   * claimed delivery back to the outbox.
   */
  deliverNext(options?: CallOptions): Promise<boolean>
  /**
   * Deletes ended deliveries (delivered, failed) last attempted more than `retentionMs` ago, in
   * batches; returns how many went (0 when retention is off). Run by the server's sweeper.
   */
  prune(options?: CallOptions): Promise<number>
}
