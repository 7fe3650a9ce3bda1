/** `FileService.swaps`: the contract (its operations are in `swaps.ts`). */

import type { Actor, CallOptions, Network, SwapRecord } from '@pinfold/interface'

/**
 * Hot swaps: inside a tenant and network, requests for a CID are answered with another CID's
 * content. They apply on the tenant's own gateway only (its active custom domains) and change
 * deserialized responses only; see `swaps.ts`.
 */
export interface SwapOperations {
  /**
   * Maps `cid` to `swapCid` (replacing an earlier mapping). Both must be held by the tenant on
   * `network`, else `NOT_FOUND`. `INVALID_INPUT`: not CIDs. `CONFLICT`: the swap would close a cycle.
   */
  add(actor: Actor, network: Network, cid: string, swapCid: string, options?: CallOptions): Promise<SwapRecord>

  /** Every swap made for `cid`, newest first. `NOT_FOUND` when there is none. */
  history(actor: Actor, network: Network, cid: string, options?: CallOptions): Promise<SwapRecord[]>

  /** Removes the swap of `cid`; the CID serves its own content again. `NOT_FOUND`. */
  remove(actor: Actor, network: Network, cid: string, options?: CallOptions): Promise<void>
}
