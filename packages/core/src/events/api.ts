/** `FileService.events`: the audit log, read (its entries are written by every other feature's writes). */
import type { Actor, CallOptions, EventRecord } from '@pinfold/interface'
import type { OperatorActor } from '../auth/operator-tokens.js'

export interface EventQuery {
  /** Only these types (`file.created`, …); absent: every type. */
  types?: readonly string[] | undefined
  /** Only events at or after this moment. */
  from?: Date | undefined
  /** Only events before this moment. */
  to?: Date | undefined
  /** Default 100, at most {@link EVENT_PAGE_MAX}. */
  limit?: number | undefined
  /** `desc` (default): newest first; `asc`: oldest first. */
  order?: 'asc' | 'desc' | undefined
  /** The `nextPageToken` of the previous page (of the same query). */
  pageToken?: string | undefined
}

export interface OperatorEventQuery extends EventQuery {
  /** Only this tenant's events (`''`: the deployment's own, such as deny rules); absent: every tenant's. */
  tenantId?: string | undefined
}

export interface EventPage {
  events: EventRecord[]
  /** Empty when this page is the last. */
  nextPageToken: string
}

export const EVENT_PAGE_MAX = 1000

export interface EventOperations {
  /** A page of the tenant's own events. `INVALID_INPUT`: a bad type, time range, limit or page token. */
  list(actor: Actor, query?: EventQuery, options?: CallOptions): Promise<EventPage>
  /** A page of every tenant's events, for the operator (same filters, plus a tenant). */
  listAll(operator: OperatorActor, query?: OperatorEventQuery, options?: CallOptions): Promise<EventPage>
  /**
   * Deletes the events recorded before `before` (the retention's cut), in batches; answers how many
   * went. For the server's sweeper.
   */
  prune(before: Date, options?: CallOptions): Promise<number>
}
