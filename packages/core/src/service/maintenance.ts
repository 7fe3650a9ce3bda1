import { backfillBlockIndex } from './block-backfill.js'
import type { ServiceContext } from './context.js'
import type { MaintenanceOperations } from './file-service-api.js'

/** A blob key core wrote for stored bytes (`blobs/<uuidv7>`), optionally a `.idx` sidecar of one. */
const STORED_BLOB = /^blobs\/([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}(\.idx)?$/

export function createMaintenance(ctx: ServiceContext): MaintenanceOperations {
  // whether the blob store can list is a property of the store, settled once at construction
  const canList = typeof ctx.blobs.list === 'function'

  return {
    async sweepOrphanBlobs(options = {}) {
      const result = { examined: 0, deleted: 0 }
      if (!canList) return result
      const { signal } = options
      const cutoff = ctx.clock.now().getTime() - (options.olderThanMs ?? 60 * 60 * 1000)
      for await (const { key } of ctx.blobs.list!({ prefix: 'blobs/', signal })) {
        const match = STORED_BLOB.exec(key)
        if (!match) continue
        result.examined++
        const createdAt = Number.parseInt(`${match[1]}${match[2]}`, 16)
        if (createdAt > cutoff) continue
        const owner = match[3] ? key.slice(0, -'.idx'.length) : key
        if (await ctx.records.isBlobReferenced(owner, { signal })) continue
        await ctx.blobs.delete(key, { signal })
        if (!match[3]) await ctx.records.deleteBlockLocations(key, { signal })
        result.deleted++
      }
      return result
    },

    indexBlocks(options = {}) {
      return backfillBlockIndex(ctx, options)
    },
  }
}
