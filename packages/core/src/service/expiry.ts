import { deleteContentBlobs } from '../dag/car-blob.js'
import type { ServiceContext } from './context.js'

const BATCH = 100

export function createExpiryOperations(ctx: ServiceContext) {
  return {
    /**
     * Deletes every file whose `expiresAt` is at or before `now` (default: the service clock),
     * through the normal delete path so blobs no file references any more are released.
     * Returns how many files it deleted. Safe to run from several processes at once: a file
     * deleted by another sweeper is simply skipped.
     */
    async sweep(now: Date = ctx.clock.now(), options: { signal?: AbortSignal | undefined } = {}): Promise<number> {
      let deleted = 0
      for (;;) {
        const expired = await ctx.records.listExpiredFiles(now, BATCH, options)
        let progressed = false
        for (const file of expired) {
          const gone = await ctx.records.deleteFile(file.tenantId, file.network, file.id, options)
          if (!gone) continue
          progressed = true
          deleted++
          if (gone.releasedContent) await deleteContentBlobs(ctx.blobs, gone.releasedContent.blobKey)
        }
        if (expired.length < BATCH || !progressed) return deleted
      }
    },
  }
}
