/** `FileService.totals`: the contract (its operations are in `totals.ts`). */

import type { CallOptions, PinStateTotal, StoredTotals } from '@pinfold/interface'

/**
 * What the whole deployment holds, every tenant together: for an operator (metrics, an admin
 * plane), never for a tenant. Each read sums every record it counts (a scan of the files, contents
 * and block index): a caller that asks often keeps the last answer for a while (the server's
 * metrics do).
 */
export interface TotalsOperations {
  /** Files, their logical bytes, the distinct contents and their physical bytes, block index entries. */
  stored(options?: CallOptions): Promise<StoredTotals>
  /** Pin-by-CID requests by state, with the oldest in each. */
  pinStates(options?: CallOptions): Promise<PinStateTotal[]>
}
