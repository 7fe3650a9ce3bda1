import type { CallOptions } from '../call-options.js'

/**
 * What changed in the facts instances keep in memory:
 * - `served`: which public content is served (a file deleted, its expiry changed);
 * - `swaps`: where a tenant's swaps send a CID (a swap put or removed, a file added or removed);
 *   both kept by the gateway's read cache (core `gateway/read-cache.ts`);
 * - `deny-rules`: the operator's deny rules (core `denylist/operator-rules.ts` reloads them);
 * - `api-keys`: a key was revoked (core `api-keys/trusted-keys.ts` forgets the keys it trusted).
 */
export const FACT_CHANGES = ['served', 'swaps', 'deny-rules', 'api-keys'] as const
export type FactChange = (typeof FACT_CHANGES)[number]

/**
 * Tells every server instance sharing one record store that facts it may have cached changed, so
 * an instance's cache never answers from a fact another instance has changed. Delivery is prompt
 * but asynchronous and may be lost (a dropped connection): a subscriber that may have missed
 * messages is told `lost`, and caches bound the age of what they keep anyway.
 */
export interface ChangeFeed {
  /** Announces a change to every subscriber of every instance (this one's included). */
  publish(change: FactChange, options?: CallOptions): Promise<void>
  /**
   * Calls `listener` with each change announced from now on, or with `lost` when messages may have
   * been missed (the feed's connection dropped). Returns the unsubscribe function.
   */
  subscribe(listener: (change: FactChange | 'lost') => void): () => void
}
