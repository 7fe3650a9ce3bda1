import type { CallOptions } from '../call-options.js'
import type { Page, PageRequest } from '../model.js'
import type { NewEvent, RecordedOptions } from './event-records.js'

/** The event types an endpoint may subscribe to (the journal's `type`s that leave the service). */
export const WEBHOOK_EVENT_TYPES = [
  'file.created',
  'file.deleted',
  'file.updated',
  'pin.queued',
  'pin.pinned',
  'pin.failed',
  'key.revoked',
  'quota.reached',
  'content.blocked',
  'endpoint.disabled',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/**
 * A URL events are posted to. `tenantId` is the owner: a tenant's endpoint receives that tenant's
 * events; an operator endpoint (`tenantId: null`) receives every tenant's.
 */
export interface WebhookEndpointRecord {
  id: string
  tenantId: string | null
  url: string
  /** The types it receives; an event of another type is not delivered to it. */
  eventTypes: string[]
  description: string
  /** The Standard Webhooks signing secret, `whsec_` + base64. */
  secret: string
  /**
   * The secret it replaced at the last rotation, still signing beside it until
   * `previousSecretExpiresAt` (the grace period receivers have to switch); `null` when none.
   */
  previousSecret: string | null
  previousSecretExpiresAt: Date | null
  /**
   * A disabled endpoint gets no new deliveries, and those queued for it wait (none is attempted)
   * until it is enabled again.
   */
  enabled: boolean
  /** When it was disabled (by its owner, or for failing); `null` while enabled. */
  disabledAt: Date | null
  /** Why, in words; `null` while enabled. */
  disabledReason: string | null
  /** The first failed attempt since its last delivered one; `null` when the last attempt delivered (or none failed). */
  failingSince: Date | null
  createdAt: Date
  updatedAt: Date
}

/**
 * What an update may change; an absent field is left as it is. Disabling an enabled endpoint sets
 * `disabledAt` (the update's time) and `disabledReason`; enabling one clears both and `failingSince`
 * (its failures start over); giving the state it already has changes neither.
 */
export interface WebhookEndpointPatch {
  url?: string | undefined
  eventTypes?: string[] | undefined
  description?: string | undefined
  enabled?: boolean | undefined
  /** The reason recorded when `enabled: false` disables it. */
  disabledReason?: string | undefined
}

/** The events of an endpoint update: `events` record the fields given, `stateEvents` the toggle. */
export interface WebhookEndpointUpdateOptions extends RecordedOptions {
  /** Appended only when the update changes `enabled` (see `updateWebhookEndpoint`). */
  stateEvents?: readonly NewEvent[] | undefined
}

/**
 * What `updateWebhookEndpoint` writes for `patch` on an endpoint whose state is `enabled`, judged by
 * each store in the step that writes (so both stores keep one contract): `undefined` when the patch
 * changes nothing; else whether it toggles the state, and the events to append with the write.
 */
export function endpointPatchWrite(
  patch: WebhookEndpointPatch,
  enabled: boolean,
  options: WebhookEndpointUpdateOptions | undefined,
): { toggles: boolean; events: NewEvent[] } | undefined {
  const toggles = patch.enabled !== undefined && patch.enabled !== enabled
  const givesFields = patch.url !== undefined || patch.eventTypes !== undefined || patch.description !== undefined
  if (!toggles && !givesFields) return undefined
  return { toggles, events: [...(options?.events ?? []), ...(toggles ? (options?.stateEvents ?? []) : [])] }
}

/** An endpoint disabled for failing (`disableFailingWebhookEndpoint`). */
export interface WebhookEndpointDisable {
  /** Disabled only if it has been failing since this moment or earlier. */
  failingBefore: Date
  at: Date
  reason: string
}

/** The event a delivery carries, copied into the outbox so the journal's retention cannot lose it. */
export interface WebhookEvent {
  id: string
  /** Dotted lowercase (`file.created`). */
  type: string
  tenantId: string
  at: Date
  actor: { kind: string; id: string }
  requestId: string | null
  target: { kind: string; id: string }
  data: Record<string, unknown>
}

/**
 * Where a delivery stands: `pending` (due at `nextAttemptAt`), `delivering` (a worker holds its
 * lease), `delivered` (a 2xx answer), `failed` (given up: out of attempts, or refused for good).
 */
export type WebhookDeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed'

/** One event to one endpoint: a row of the outbox. */
export interface WebhookDeliveryRecord {
  id: string
  endpointId: string
  /** The endpoint's owner (`null`: the operator), for scoping and for fair turns. */
  tenantId: string | null
  event: WebhookEvent
  status: WebhookDeliveryStatus
  /** Sends started so far (counted when claimed). */
  attempts: number
  /** When it is due next; `null` once it has ended. */
  nextAttemptAt: Date | null
  lastAttemptAt: Date | null
  /** The HTTP status of the last answer; `null` when there was none (refused, timed out, unreachable). */
  lastStatusCode: number | null
  /** Why the last attempt did not deliver, in words; `null` after a success. */
  lastError: string | null
  leaseOwner: string | null
  leaseExpiresAt: Date | null
  createdAt: Date
}

/** How a worker ends the attempt it holds. */
export type WebhookAttemptOutcome =
  | { status: 'delivered'; statusCode: number; at: Date }
  | { status: 'failed'; statusCode: number | null; error: string; at: Date }
  | { status: 'pending'; statusCode: number | null; error: string; at: Date; nextAttemptAt: Date }

/** How `claimWebhookDelivery` shares the workers. */
export interface WebhookClaimOptions extends CallOptions {
  /** Most deliveries of one owner (a tenant, or the operator) being sent at once across processes. */
  maxRunningPerTenant?: number | undefined
  /** Most deliveries to one endpoint being sent at once across processes. */
  maxRunningPerEndpoint?: number | undefined
}

/**
 * Webhook endpoints and their outbox. Several processes share one store: claims are exclusive and
 * leased, so a process that dies mid-send leaves its delivery to be taken over after the lease.
 * Every method that takes an owner scopes to it: a tenant never reads or changes another's
 * endpoints (`null` is the operator's own endpoints, not every tenant's).
 */
export interface WebhookRecordStore {
  /**
   * Stores a new endpoint, with `events` in the same atomic step; a reused id is a `CONFLICT`. With
   * `maxPerOwner`, an owner already holding that many endpoints is refused with `RATE_LIMITED`
   * (count and insert are one atomic step; nothing is appended).
   */
  createWebhookEndpoint(
    endpoint: WebhookEndpointRecord,
    options?: RecordedOptions & { maxPerOwner?: number | undefined },
  ): Promise<void>

  getWebhookEndpoint(
    tenantId: string | null,
    id: string,
    options?: CallOptions,
  ): Promise<WebhookEndpointRecord | undefined>

  /** A keyset page of the owner's endpoints, by `(createdAt, id)`. */
  listWebhookEndpoints(
    tenantId: string | null,
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<WebhookEndpointRecord>>

  /**
   * Applies `patch` and `updatedAt`, with `events` in the same atomic step; `stateEvents` are
   * appended too, but only when the patch's `enabled` changes the state the endpoint has in that
   * step (of concurrent identical toggles, exactly one records its entry). A patch that changes
   * nothing (no field given, and `enabled` absent or the state it has) writes and appends nothing
   * and answers the endpoint as it is, its `updatedAt` untouched. `undefined` (nothing appended)
   * when the owner has no such endpoint.
   */
  updateWebhookEndpoint(
    tenantId: string | null,
    id: string,
    patch: WebhookEndpointPatch,
    updatedAt: Date,
    options?: WebhookEndpointUpdateOptions,
  ): Promise<WebhookEndpointRecord | undefined>

  /**
   * Deletes the endpoint and its deliveries, with `events` in the same atomic step; false (nothing
   * appended) when the owner has no such endpoint.
   */
  deleteWebhookEndpoint(tenantId: string | null, id: string, options?: RecordedOptions): Promise<boolean>

  /**
   * Moves up to `limit` events of the journal not yet fanned out into the outbox, oldest first, in
   * one atomic step: one `pending` delivery (due at `now`) per enabled endpoint that subscribes to
   * the event's type (the event's tenant's endpoints and the operator's), and the events are marked
   * fanned out. Of concurrent calls each event is taken by exactly one, so each (endpoint, event)
   * is in the outbox once. Returns how many events it took.
   */
  fanOutWebhookEvents(limit: number, now: Date, options?: CallOptions): Promise<number>

  /**
   * Queues one delivery outside the journal (a test event the owner asked for); a second delivery
   * of the same event to the same endpoint is a `CONFLICT`.
   */
  addWebhookDelivery(delivery: WebhookDeliveryRecord, options?: CallOptions): Promise<void>

  /**
   * A keyset page of one endpoint's deliveries, by `(createdAt, id)`; empty when the owner has no
   * such endpoint.
   */
  listWebhookDeliveries(
    tenantId: string | null,
    endpointId: string,
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<WebhookDeliveryRecord>>

  /**
   * Takes a due delivery of an enabled endpoint — `pending` with `nextAttemptAt <= now`, or
   * `delivering` with a lease expired at `now` — sets it `delivering`, leased to `owner` until `now + leaseMs`, and counts
   * the attempt. Each delivery goes to exactly one of concurrent claimers; `undefined` when none is
   * due. Owners take turns: among owners with a due delivery, under `maxRunningPerTenant` running
   * and whose endpoint is under `maxRunningPerEndpoint` running, the claim goes to the owner with
   * the fewest running, then the one served longest ago, then the one whose due delivery is
   * oldest; of its deliveries to endpoints under their cap it takes the earliest due, by
   * `(nextAttemptAt, id)`. A hanging endpoint thus holds at most its cap of workers.
   */
  claimWebhookDelivery(
    owner: string,
    now: Date,
    leaseMs: number,
    options?: WebhookClaimOptions,
  ): Promise<WebhookDeliveryRecord | undefined>

  /**
   * Records the attempt `owner` holds: delivered, failed for good, or `pending` again at
   * `nextAttemptAt`; the lease is cleared. In the same step the endpoint's `failingSince` is
   * cleared by a delivered attempt and set to `outcome.at` by any other when unset. False (nothing
   * changes) when it is gone or no longer leased to `owner` (taken over after the lease ran out).
   */
  finishWebhookAttempt(
    id: string,
    owner: string,
    outcome: WebhookAttemptOutcome,
    options?: CallOptions,
  ): Promise<boolean>

  /**
   * Disables an enabled endpoint (any owner's) whose `failingSince` is at or before
   * `disable.failingBefore`: `enabled` false, `disabledAt` and `disabledReason` from `disable`, with
   * `events` appended in the same atomic step. `undefined` (nothing changes, nothing appended) when
   * there is no such endpoint, it is disabled already, or it has not been failing that long; of
   * concurrent calls at most one disables it.
   */
  disableFailingWebhookEndpoint(
    id: string,
    disable: WebhookEndpointDisable,
    options?: RecordedOptions,
  ): Promise<WebhookEndpointRecord | undefined>

  /**
   * Replaces the owner's endpoint's secret with `secret`, keeping the one it replaces as
   * `previousSecret` until `previousExpiresAt` (a previous secret from an earlier rotation is
   * dropped), with `events` in the same atomic step; `undefined` (nothing appended) when the owner
   * has no such endpoint.
   */
  rotateWebhookSecret(
    tenantId: string | null,
    id: string,
    secret: string,
    previousExpiresAt: Date,
    updatedAt: Date,
    options?: RecordedOptions,
  ): Promise<WebhookEndpointRecord | undefined>

  /**
   * Gives a held delivery back (`pending`, due at once, its attempt not counted), as a process
   * does when it stops mid-send. False when it is gone or not leased to `owner`.
   */
  releaseWebhookDelivery(id: string, owner: string, options?: CallOptions): Promise<boolean>

  /**
   * Deletes up to `limit` ended deliveries (`delivered` or `failed`) whose last attempt was before
   * `before`, oldest first (the outbox's retention); pending and running ones stay. Answers how
   * many went.
   */
  pruneWebhookDeliveries(before: Date, limit: number, options?: CallOptions): Promise<number>
}
