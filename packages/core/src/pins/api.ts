/** `FileService.pins`: the contract (its operations are in `pins.ts`). */

import type { Actor, CallOptions, PinRequestFilter, PinRequestRecord } from '@pinfold/interface'
import type { KeyValueInput, ListResult } from '../common/api.js'
import type { PageQuery } from '../common/pagination.js'

/** A pin-by-CID request as callers give it (Pinata's `POST /v3/files/public/pin_by_cid`). */
export interface PinInput {
  cid: string
  /** Defaults to the CID. */
  name?: string | undefined
  groupId?: string | null | undefined
  keyvalues?: KeyValueInput | undefined
  /**
   * Multiaddrs of peers that hold the content: at most 20, each at most 512 characters, naming a
   * host (`/ip4`, `/ip6`, `/dns`, `/dns4`, `/dns6`) and ending with the peer's id (`/p2p/…`),
   * none twice; kept in canonical form. Whether one may be dialled is decided at dial time, on
   * the addresses its name resolves to then.
   */
  hostNodes?: readonly string[] | undefined
}

export interface PinListQuery extends PageQuery, Pick<PinRequestFilter, 'states' | 'failures' | 'cids'> {}

/** A Pinning Service API listing: the newest `limit` (1–1000) requests the filter matches. */
export interface PinSearch extends PinRequestFilter {
  limit: number
}

/**
 * Pin by CID: requests to fetch a DAG from the IPFS network and keep it as a public file. A request
 * is queued in the record store and run by a worker (`runNext`, which `pinfold serve` calls in a
 * loop); the file it makes has the request's id.
 */
export interface PinOperations {
  /**
   * Queues a request. `INVALID_INPUT` for a CID that does not parse or whose codec or hash Pinfold
   * cannot keep (raw, dag-pb and dag-cbor; sha2-256 and sha2-512), bad names, keyvalues or host
   * nodes; `NOT_FOUND` for a group that is not the tenant's public group; `RATE_LIMITED` when the
   * tenant already has `pinning.maxQueuedPerTenant` requests queued or running.
   */
  add(actor: Actor, input: PinInput, options?: CallOptions): Promise<PinRequestRecord>

  /** The tenant's request. `NOT_FOUND` for an unknown or another tenant's id. */
  get(actor: Actor, id: string, options?: CallOptions): Promise<PinRequestRecord>

  /**
   * The newest `limit` requests the filter matches, and how many it matches in all (the Pinning
   * Service API's `GET /pins`; the next page is the one `before` the oldest of this one).
   * `INVALID_INPUT` for a limit outside 1–1000, more than 10 CIDs or a name over 255 characters.
   */
  search(
    actor: Actor,
    query: PinSearch,
    options?: CallOptions,
  ): Promise<{ requests: PinRequestRecord[]; count: number }>

  /**
   * Queues a new request in place of request `id`, atomically, and returns it (a new id). A pinned
   * request's file is kept until the new request ends, pinned or failed, then deleted, so the
   * blocks both DAGs share are never let go meanwhile. Codes as {@link add}, and `NOT_FOUND` for
   * an unknown or another tenant's id.
   */
  replace(actor: Actor, id: string, input: PinInput, options?: CallOptions): Promise<PinRequestRecord>

  /** A page of the tenant's requests, oldest first unless `order` says otherwise. */
  list(
    actor: Actor,
    query?: PinListQuery,
    options?: CallOptions,
  ): Promise<ListResult & { requests: PinRequestRecord[] }>

  /**
   * Deletes a request that is not pinned yet, stopping its job (at once in this process, at the
   * job's next lease renewal in another). `NOT_FOUND` for an unknown, pinned or other tenant's id.
   */
  remove(actor: Actor, id: string, options?: CallOptions): Promise<void>

  /**
   * Deletes a request in any state (the Pinning Service API's `DELETE /pins/{requestid}`): a pinned
   * one's file is deleted with it, an unfinished one's job stopped. `NOT_FOUND` for an unknown or
   * another tenant's id.
   */
  unpin(actor: Actor, id: string, options?: CallOptions): Promise<void>

  /**
   * Claims the next runnable request (queued, or abandoned by a worker whose lease ran out), tenants
   * taking turns and none running more than `pinning.maxRunningPerTenant` at once, suspended tenants'
   * passed over (they wait, queued, for a resume), and runs its job to the end; false when there
   * was none. When `signal` fires mid-job the request goes
   * back to the queue. Rejects only when the store fails; the job's own failures end the request.
   */
  runNext(options?: CallOptions): Promise<boolean>
}
