/**
 * The audit log: an append-only, per-tenant journal of every state change. An event is never
 * written on its own by core: it rides in the options of the write it records (`RecordedOptions`)
 * and the store appends it in the same atomic step, so there is no change without its entry and no
 * entry without its change. The few events that record no stored change (a refusal for quota, a
 * blocked read) are appended alone with `appendEvents`.
 */

import type { CallOptions } from '../call-options.js'
import type { Page } from '../model.js'

/**
 * The `tenantId` of events that belong to no tenant (the operator's deny rules): no token names an
 * empty tenant, so no tenant ever sees them; the operator's view lists them with the rest.
 */
export const DEPLOYMENT_TENANT_ID = ''

/** Who caused an event: a tenant's user (a token), one of its API keys, the operator, or Pinfold itself. */
export interface EventActor {
  kind: 'user' | 'key' | 'operator' | 'system'
  id: string
}

/** What core hands the store: the store adds `id`, `seq` and `at` when it appends it. */
export interface NewEvent {
  tenantId: string
  /** Dotted lowercase: `file.created`, `key.revoked`, `tenant.suspended`, … */
  type: string
  actor: EventActor
  /** The request that caused it (`X-Request-Id`), `null` for a change no request made (a sweep, a pin job). */
  requestId: string | null
  /** What changed: `{ kind: 'file', id }`, `{ kind: 'group', id }`, … */
  target: { kind: string; id: string }
  /** A few facts about the change (a CID, a name, a size): never a secret. */
  data: Record<string, unknown>
}

export interface EventRecord extends NewEvent {
  /** A UUID the store chose. */
  id: string
  /** Increases with every append across the deployment; a later commit may take a smaller one. */
  seq: number
  at: Date
}

/**
 * The options of every write that records an event: the events are appended in the same
 * transaction as the change, and only when the call changes something (a delete that finds nothing
 * appends nothing). If an event cannot be written the change is not made either.
 */
export interface RecordedOptions extends CallOptions {
  events?: readonly NewEvent[] | undefined
}

export interface EventFilter {
  /** Only this tenant's events; absent: every tenant's (the operator's view). */
  tenantId?: string | undefined
  /** Only these types (any of them); absent or empty: every type. */
  types?: readonly string[] | undefined
  /** Only events at or after this moment. */
  from?: Date | undefined
  /** Only events before this moment. */
  to?: Date | undefined
}

export interface EventPageRequest {
  /** At least 1; stores may assume core has clamped it. */
  limit: number
  /** `desc`: newest first (the default view); `asc`: oldest first. */
  order: 'asc' | 'desc'
  /** Start strictly after the event with this `seq` in `order`. */
  afterSeq?: number | undefined
}

export interface EventRecordStore {
  /**
   * Appends events that record no stored change (a refusal, a blocked read), atomically: all or
   * none. Events that record a change go in that change's `RecordedOptions.events` instead.
   */
  appendEvents(events: readonly NewEvent[], options?: CallOptions): Promise<EventRecord[]>

  /** A page of events matching `filter`, ordered by `seq`. */
  listEvents(filter: EventFilter, page: EventPageRequest, options?: CallOptions): Promise<Page<EventRecord>>

  /**
   * Deletes the events recorded before `before` (the retention), whether or not the webhooks have
   * fanned them out; answers how many went. Deletes at most `limit` rows a call, oldest first, so a
   * sweep holds no long lock.
   */
  pruneEvents(before: Date, limit: number, options?: CallOptions): Promise<number>
}
