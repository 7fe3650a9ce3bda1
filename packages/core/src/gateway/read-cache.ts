import type { BlockLocation, ChangeFeed, FactChange, LocatedBlock } from '@pinfold/interface'
import { LRUCache } from 'lru-cache'

/**
 * What the gateway keeps between requests so that serving the same content again costs no
 * database round trip and no blob read. Two kinds of entry, in two byte-bounded LRUs:
 *
 * - **facts** that can change: which content serves a block publicly (`findPublicBlock`, kept until
 *   the answer's own `until` — the latest expiry of the files serving it) and where a tenant's swaps
 *   send a CID. They are dropped on every change that could make them wrong (`invalidate`: a file
 *   deleted, its expiry changed; for swaps also a file added and a swap put or removed), announced
 *   to other instances on the record store's {@link ChangeFeed}, and kept at most `ttlMs` whatever
 *   happens: the bound on staleness when a notification is lost.
 * - **immutable bytes**: a block's location inside a blob and the bytes of small blocks and small
 *   files, keyed by blob key and multihash. A blob's bytes never change (keys are never reused), and
 *   they are only ever reached through a fact that is current, so these never need invalidating.
 *
 * A lookup that started before an invalidation never stores its (possibly stale) answer after it:
 * every fill checks the generation it started in.
 */
export interface GatewayReadCache {
  /** `findPublicBlock` through the cache: a positive answer is kept while `now` is before its `until`. */
  located(key: string, now: Date, load: () => Promise<LocatedBlock | undefined>): Promise<LocatedBlock | undefined>
  /** Where a tenant's swaps send a CID (`null`: nowhere), through the cache. */
  swapTarget(key: string, load: () => Promise<string | null>): Promise<string | null>
  /** A block's location inside a blob (immutable), through the cache. */
  location(key: string, load: () => Promise<BlockLocation | undefined>): Promise<BlockLocation | undefined>
  /** Bytes of a block or a whole small file, if kept. */
  getBytes(key: string): Uint8Array | undefined
  /** Keeps bytes of at most `maxItemBytes` (larger ones are not kept). */
  setBytes(key: string, bytes: Uint8Array): void
  /** Largest block or file kept whole. */
  readonly maxItemBytes: number
  /** Drops the facts `change` may have made wrong, here and, with a feed, on every instance. */
  invalidate(change: FactChange): void
  /**
   * Counts the invalidations so far, local and announced (and notices possibly lost): what an
   * answer built from these facts and kept longer (the gateway's answer cache) is stamped with.
   */
  readonly generation: number
}

export interface GatewayCacheSettings {
  /** Memory for the cache, in bytes; 0 turns it off. */
  maxBytes: number
  /** Longest a fact is kept, whatever notifications say (the bound when one is lost). */
  ttlMs: number
  /** Largest block or small file kept whole. */
  maxItemBytes: number
  /** Changes announced by other instances on the same record store. */
  changes?: ChangeFeed | undefined
}

export const DEFAULT_GATEWAY_CACHE: Omit<GatewayCacheSettings, 'changes'> = {
  maxBytes: 64 * 1024 * 1024,
  ttlMs: 60_000,
  maxItemBytes: 64 * 1024,
}

/** The changes this cache keeps facts of (the feed carries others, which it ignores). */
const CACHED_FACTS = ['served', 'swaps'] as const
type CachedFact = (typeof CACHED_FACTS)[number]

/** Estimated bytes of one fact entry: its key, a content record and a location, with object overhead. */
const FACT_BYTES = 512
/** The share of the memory given to facts; the rest holds bytes. */
const FACT_SHARE = 1 / 8

export function createGatewayReadCache(settings: GatewayCacheSettings): GatewayReadCache {
  const off = settings.maxBytes === 0
  const factBytes = Math.max(2 * FACT_BYTES, Math.floor(settings.maxBytes * FACT_SHARE))
  const factCache = <V extends object>() =>
    new LRUCache<string, V>({
      maxSize: factBytes / 2,
      sizeCalculation: (_value, key) => FACT_BYTES + key.length,
      ttl: settings.ttlMs,
    })
  const facts = {
    served: factCache<{ located: LocatedBlock; until: number | null }>(),
    swaps: factCache<{ target: string | null }>(),
  }
  const bytes = new LRUCache<string, Uint8Array | BlockLocation>({
    maxSize: Math.max(1, settings.maxBytes - factBytes),
    sizeCalculation: (value, key) => key.length + ('byteLength' in value ? value.byteLength : 64),
  })
  // generations: a fill that started before an invalidation of its kind does not store
  const generations: Record<CachedFact, number> = { served: 0, swaps: 0 }
  let generation = 0
  const dropLocal = (change: FactChange | 'lost') => {
    for (const kind of change === 'lost' ? CACHED_FACTS : CACHED_FACTS.filter((fact) => fact === change)) {
      generations[kind]++
      generation++
      facts[kind].clear()
    }
  }
  settings.changes?.subscribe(dropLocal)

  return {
    maxItemBytes: off ? 0 : settings.maxItemBytes,

    get generation() {
      return generation
    },

    async located(key, now, load) {
      const kept = off ? undefined : facts.served.get(key)
      if (kept && (kept.until === null || now.getTime() < kept.until)) return kept.located
      const generation = generations.served
      const found = await load()
      // an adapter that does not say how long the answer holds is asked every time
      if (!off && found && found.until !== undefined && generation === generations.served) {
        facts.served.set(key, { located: found, until: found.until?.getTime() ?? null })
      }
      return found
    },

    async swapTarget(key, load) {
      const kept = off ? undefined : facts.swaps.get(key)
      if (kept) return kept.target
      const generation = generations.swaps
      const target = await load()
      if (!off && generation === generations.swaps) facts.swaps.set(key, { target })
      return target
    },

    async location(key, load) {
      const id = `P${key}`
      const kept = off ? undefined : bytes.get(id)
      if (kept && !('byteLength' in kept)) return kept
      const found = await load()
      if (!off && found) bytes.set(id, found)
      return found
    },

    getBytes(key) {
      const kept = off ? undefined : bytes.get(`B${key}`)
      return kept && 'byteLength' in kept ? kept : undefined
    },

    setBytes(key, value) {
      if (!off && value.byteLength <= settings.maxItemBytes) bytes.set(`B${key}`, value)
    },

    invalidate(change) {
      dropLocal(change)
      // every instance hears it, this one again: harmless, its facts were just dropped
      settings.changes?.publish(change).catch(() => dropLocal('lost'))
    },
  }
}
