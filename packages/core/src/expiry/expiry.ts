import { deleteContentBlobs } from '../content/dag/car-blob.js'
import { fileFacts, systemEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import type { ExpiryOperations } from './api.js'

/** What the expiry sweep uses of the service. */
export type ExpirySettings = Pick<ServiceContext, 'records' | 'blobs' | 'clock'>

const BATCH = 100

export function createExpiryOperations(ctx: ExpirySettings): ExpiryOperations {
  return {
    async sweep(now = ctx.clock.now(), options = {}) {
      let deleted = 0
      for (;;) {
        const expired = await ctx.records.gateway.listExpiredFiles(now, BATCH, options)
        let progressed = false
        for (const file of expired) {
          const facts = fileFacts('file.deleted', file)
          const events = [systemEvent(file.tenantId, { ...facts, data: { ...facts.data, expired: true } }, 'expiry')]
          const gone = await ctx.records.files.deleteFile(file.tenantId, file.network, file.id, { ...options, events })
          if (!gone) continue
          progressed = true
          deleted++
          // a pinned file's request (same id) goes with it, as when the file is deleted by hand
          if (file.network === 'public') {
            await ctx.records.pinRequests.deletePinRequest(file.tenantId, file.id, { ...options, pinned: true })
          }
          if (gone.releasedContent) await deleteContentBlobs(ctx.blobs, gone.releasedContent.blobKey)
        }
        if (expired.length < BATCH || !progressed) return deleted
      }
    },
  }
}
