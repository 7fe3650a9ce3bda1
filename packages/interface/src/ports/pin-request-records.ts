import type { CallOptions } from '../call-options.js'
import type { KeyValues, Page, PageRequest } from '../model.js'
import type { RecordedOptions } from './event-records.js'

/**
 * Where a pin-by-CID request stands:
 * - `queued`: waiting for a worker;
 * - `retrieving`: a worker holds its lease and is fetching the DAG;
 * - `pinned`: the DAG is stored and a file record (id = the request's id) holds it;
 * - `failed`: it ended without the DAG, for the `failure` reason.
 */
export type PinRequestState = 'queued' | 'retrieving' | 'pinned' | 'failed'

/**
 * Why a request failed: no source had a block (`not_found`), the DAG is over the size or block cap
 * (`too_large`), a block did not hash to its CID or could not be decoded (`invalid_object`), the job
 * ran out of time (`timed_out`).
 */
export type PinFailure = 'not_found' | 'too_large' | 'invalid_object' | 'timed_out'

/** A request to fetch a DAG by its CID from the IPFS network and store it (Pinata's pin by CID). */
export interface PinRequestRecord {
  id: string
  tenantId: string
  userId: string
  /** The root CID as the requester spelt it. */
  cid: string
  name: string
  groupId: string | null
  keyvalues: KeyValues
  /** Multiaddrs of peers the requester says hold the content (`host_nodes`). */
  hostNodes: string[]
  state: PinRequestState
  /** Set exactly when `state` is `failed`. */
  failure: PinFailure | null
  /** Why it failed, in words (names the block and the sources tried); `null` unless failed. */
  reason: string | null
  /**
   * When the request was queued (Pinata's `date_queued`, the Pinning Service API's `created`); pages
   * are ordered by it.
   */
  createdAt: Date
  /**
   * The id of a pinned request this one replaces (the Pinning Service API's `POST /pins/{requestid}`):
   * that request's record is gone already, its file is kept until this request ends, so blocks the
   * two DAGs share stay held meanwhile; `null` for a request that replaces nothing.
   */
  replaces: string | null
  /** Bytes of the stored DAG once `pinned` (the file's size); `null` before. */
  dagSize: number | null
  /** How many times a worker has claimed it. */
  attempts: number
  /** The worker holding the lease while `retrieving`, else `null`. */
  leaseOwner: string | null
  /** When the lease runs out: after it, another worker may take the request over. */
  leaseExpiresAt: Date | null
}

/**
 * How a name filter matches (the Pinning Service API's `TextMatchingStrategy`): the whole name or a
 * part of it, with case or without (case folded as `toLowerCase` / SQL `lower` fold it).
 */
export type NameMatch = 'exact' | 'iexact' | 'partial' | 'ipartial'

export interface PinRequestFilter {
  /** Only requests in one of these states; undefined means any. */
  states?: readonly PinRequestState[] | undefined
  /** Only failed requests with one of these failures (implies `failed`). */
  failures?: readonly PinFailure[] | undefined
  /** Only requests for exactly one of these CID texts. */
  cids?: readonly string[] | undefined
  /** Only requests whose name matches `text` as `match` says. */
  name?: { text: string; match: NameMatch } | undefined
  /** Only requests created strictly before this instant. */
  before?: Date | undefined
  /** Only requests created strictly after this instant. */
  after?: Date | undefined
  /** Only requests whose keyvalues hold every one of these pairs. */
  keyvalues?: KeyValues | undefined
}

/** How `createPinRequest` bounds one tenant's share of the queue. */
export interface PinCreateOptions extends RecordedOptions {
  /**
   * Most requests one tenant may have `queued` or `retrieving` at once, the new one included;
   * undefined: no cap. Over it the request is refused with `RATE_LIMITED`.
   */
  maxOpenPerTenant?: number | undefined
}

/** How `claimPinRequest` shares the workers between tenants. */
export interface PinClaimOptions extends CallOptions {
  /**
   * Most requests of one tenant running (`retrieving` under a live lease) at once across every
   * process; a tenant at the cap is passed over. Undefined: no cap.
   */
  maxRunningPerTenant?: number | undefined
  /**
   * Tenants whose requests are passed over, however long they have waited (tenants the operator
   * suspended): their requests stay as they are and are claimed again once not excluded.
   */
  excludeTenants?: readonly string[] | undefined
}

/** How a worker ends the request it holds; a pinned one records its DAG's size. */
export type PinOutcome = { state: 'pinned'; dagSize: number } | { state: 'failed'; failure: PinFailure; reason: string }

/** How `deletePinRequest` treats a pinned request. */
export interface PinDeleteOptions extends RecordedOptions {
  /**
   * Delete a `pinned` request too (its file is being deleted, or has been); by default a pinned
   * request is kept, as its file is managed as a file.
   */
  pinned?: boolean | undefined
}

/**
 * The pin-by-CID queue. Several server processes share one store, so every claim is exclusive
 * across processes: a request is worked on by at most one lease holder at a time, and a lease that
 * runs out (its process died) lets another worker take the request over.
 */
/** How `releasePinRequest` treats the attempt being given back. */
export interface PinReleaseOptions extends CallOptions {
  /** Keep the attempt counted (the job failed on its own); default: the attempt is not counted. */
  attempted?: boolean | undefined
}

export interface PinRequestRecordStore {
  /**
   * Stores a new request (state `queued`, no lease); reusing an id is a `CONFLICT`. When its tenant
   * already has `maxOpenPerTenant` requests `queued` or `retrieving`, nothing is stored and the
   * answer is `RATE_LIMITED`; the check and the insert are one atomic step, so of concurrent
   * creates for one tenant with room for k more, exactly k are stored.
   */
  createPinRequest(request: PinRequestRecord, options?: PinCreateOptions): Promise<void>

  /** Tenant-scoped lookup. */
  getPinRequest(tenantId: string, id: string, options?: CallOptions): Promise<PinRequestRecord | undefined>

  /** A keyset page of the tenant's requests, ordered by `(createdAt, id)`; filters combine with AND. */
  listPinRequests(
    tenantId: string,
    filter: PinRequestFilter,
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<PinRequestRecord>>

  /**
   * A keyset page of every tenant's requests in one of `states` (any state when undefined), ordered
   * by `(createdAt, id)`: the queue as the operator sees it.
   */
  listPinQueue(
    filter: { states?: readonly PinRequestState[] | undefined },
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<PinRequestRecord>>

  /**
   * How many of the tenant's requests the filter matches (the Pinning Service API's `count`). A
   * filter of states alone is answered without reading the requests (it stays fast at millions).
   */
  countPinRequests(tenantId: string, filter: PinRequestFilter, options?: CallOptions): Promise<number>

  /**
   * Queues `request` in place of the tenant's request `replacedId`, as one atomic step: the
   * replaced request is deleted and returned (`undefined`, and nothing stored, when it is not the
   * tenant's), and the new one is stored under the same cap as {@link createPinRequest}, the
   * replaced one no longer counting. The stored request's `replaces` is set here: the replaced
   * request's id when it was `pinned` (its file must stay until the new request ends), else the
   * replaced request's own `replaces` (a replacement still under way hands its file on). Of
   * concurrent replaces of one request exactly one succeeds.
   */
  replacePinRequest(
    replacedId: string,
    request: PinRequestRecord,
    options?: PinCreateOptions,
  ): Promise<PinRequestRecord | undefined>

  /**
   * Takes a claimable request — `queued`, or `retrieving` with a lease expired at `now` — sets it
   * `retrieving`, leased to `owner` until `now + leaseMs`, and counts the attempt. Of concurrent
   * claimers (in any process) each request goes to exactly one. `undefined` when none is claimable.
   *
   * Tenants take turns, so one tenant's backlog never holds every worker while another waits:
   * among tenants with a claimable request and fewer than `maxRunningPerTenant` running, the
   * claim goes to the tenant with the fewest running (`retrieving` under a live lease at `now`),
   * then the one served longest ago (never served first), then the one whose oldest claimable
   * request is oldest; of that tenant's requests it takes the oldest, by `(createdAt, id)`.
   * Concurrent claims decide one after the other, each seeing the claims before it.
   */
  claimPinRequest(
    owner: string,
    now: Date,
    leaseMs: number,
    options?: PinClaimOptions,
  ): Promise<PinRequestRecord | undefined>

  /**
   * Extends the lease `owner` holds to `until`. False when the request is gone (deleted) or no
   * longer leased to `owner` (finished, or taken over after the lease ran out): the worker stops.
   */
  renewPinLease(id: string, owner: string, until: Date, options?: CallOptions): Promise<boolean>

  /**
   * Ends the request `owner` holds: `pinned`, or `failed` with its failure and reason; the lease is
   * cleared. False (and nothing changes) when it is gone or not leased to `owner`.
   */
  finishPinRequest(id: string, owner: string, outcome: PinOutcome, options?: RecordedOptions): Promise<boolean>

  /**
   * Gives a held request back to the queue (`queued`, no lease) so another worker takes it at once,
   * as a process does when it shuts down mid-job or a job stops for its tenant's suspension. The
   * attempt its claim counted is given back too (the job was stopped, it did not fail), unless
   * `attempted` says the job ended by a failure of its own (a store error), which counts toward
   * the attempts after which a request is given up. False when it is gone or not leased to `owner`.
   */
  releasePinRequest(id: string, owner: string, options?: PinReleaseOptions): Promise<boolean>

  /**
   * Deletes a request that is not `pinned` (or any, with `pinned: true`) and returns it; a pinned
   * one otherwise (its file is managed as a file now) and another tenant's are `undefined`. Its
   * worker learns of it at its next lease renewal or finish, both of which then answer false.
   */
  deletePinRequest(tenantId: string, id: string, options?: PinDeleteOptions): Promise<PinRequestRecord | undefined>
}
