import { type BackfillResult, backfillBlockIndex } from './block-backfill.js'
import type { ServiceContext } from './context.js'

/** A blob key core wrote for stored bytes (`blobs/<uuidv7>`), optionally a `.idx` sidecar of one. */
const STORED_BLOB = /^blobs\/([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}(\.idx)?$/

export interface OrphanSweepResult {
  examined: number
  deleted: number
}

export function createMaintenance(ctx: ServiceContext) {
  return {
    /**
     * Deletes blobs that no content record owns: bytes of uploads that died between writing their
     * blob and committing their record (a crash, a lost database connection). Only blobs older than
     * `olderThanMs` are touched — a blob key is a UUIDv7, so its age is read from the key itself and
     * uploads still in flight are never swept. Needs a blob store that can `list`.
     */
    async sweepOrphanBlobs(options: { olderThanMs?: number; signal?: AbortSignal } = {}): Promise<OrphanSweepResult> {
      const result = { examined: 0, deleted: 0 }
      if (!ctx.blobs.list) return result
      const cutoff = ctx.clock.now().getTime() - (options.olderThanMs ?? 60 * 60 * 1000)
      for await (const { key } of ctx.blobs.list({ prefix: 'blobs/', signal: options.signal })) {
        const match = STORED_BLOB.exec(key)
        if (!match) continue
        result.examined++
        const createdAt = Number.parseInt(`${match[1]}${match[2]}`, 16)
        if (createdAt > cutoff) continue
        const owner = match[3] ? key.slice(0, -'.idx'.length) : key
        if (await ctx.records.isBlobReferenced(owner, { signal: options.signal })) continue
        await ctx.blobs.delete(key, { signal: options.signal })
        if (!match[3]) await ctx.records.deleteBlockLocations(key, { signal: options.signal })
        result.deleted++
      }
      return result
    },

    /**
     * Indexes the blocks of contents stored before the block index existed; run once at start-up
     * (and harmless to run again). Until it has finished, blocks of those contents other than
     * what their own records name may answer 404 on the gateway.
     */
    indexBlocks(options: { signal?: AbortSignal } = {}): Promise<BackfillResult> {
      return backfillBlockIndex(ctx, options)
    },
  }
}
