import type { ServiceContext } from '../service/context.js'
import { sessionBlobKeys } from '../uploads/session-blobs.js'
import type { MaintenanceOperations } from './api.js'
import { backfillBlockIndex } from './block-backfill.js'

/** What the maintenance operations use of the service. */
export type MaintenanceSettings = Pick<ServiceContext, 'records' | 'blobs' | 'clock'>

const UUID7 = '([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}'
/**
 * A blob key core wrote for stored bytes (`blobs/<uuidv7>`; a resumable upload's is its session's
 * id), optionally a `.idx` sidecar of one.
 */
const STORED_BLOB = new RegExp(`^blobs/${UUID7}(\\.idx)?$`)
/**
 * A blob a resumable upload's PATCH wrote (`tus/<session id>/[carry-|nodes-]<offset>-<uuidv7>`):
 * its part, its carry or its DAG nodes. The UUIDv7 was made when the PATCH began.
 */
const SESSION_BLOB = new RegExp(`^tus/([^/]+)/(?:carry-|nodes-)?\\d+-${UUID7}$`)

export function createMaintenanceOperations(ctx: MaintenanceSettings): MaintenanceOperations {
  // whether the blob store can list is a property of the store, settled once at construction
  const canList = typeof ctx.blobs.list === 'function'

  return {
    async sweepOrphanBlobs(options = {}) {
      const result = { examined: 0, deleted: 0 }
      if (!canList) return result
      const { signal } = options
      const cutoff = ctx.clock.now().getTime() - (options.olderThanMs ?? 60 * 60 * 1000)
      const madeAt = (high: string, low: string) => Number.parseInt(`${high}${low}`, 16)
      for await (const { key } of ctx.blobs.list!({ prefix: 'blobs/', signal })) {
        const stored = STORED_BLOB.exec(key)
        if (!stored) continue
        result.examined++
        if (madeAt(stored[1]!, stored[2]!) > cutoff) continue
        const owner = stored[3] ? key.slice(0, -'.idx'.length) : key
        if (await ctx.records.files.isBlobReferenced(owner, { signal })) continue
        // a resumable upload's blob is named after its session: assembled by a completion that
        // died before its commit, it waits for the session's retry
        if (await ctx.records.uploadSessions.getUploadSession(owner.slice('blobs/'.length), { signal })) continue
        await ctx.blobs.delete(key, { signal })
        if (!stored[3]) await ctx.records.blocks.deleteBlockLocations(key, { signal })
        result.deleted++
      }
      // A PATCH killed between storing one of these and advancing its session left it: no session
      // names it, and none ever will (a finished or swept session deletes only the blobs it names).
      // A session's blobs share a folder, so a listing gives them one after another: its record is
      // read once for them all, not once a blob (no order is promised: a stray order only reads it again).
      let named: { sessionId: string; keys: ReadonlySet<string> } | undefined
      for await (const { key } of ctx.blobs.list!({ prefix: 'tus/', signal })) {
        const part = SESSION_BLOB.exec(key)
        if (!part) continue
        result.examined++
        if (madeAt(part[2]!, part[3]!) > cutoff) continue
        const sessionId = part[1]!
        if (named?.sessionId !== sessionId) {
          const holder = await ctx.records.uploadSessions.getUploadSession(sessionId, { signal })
          named = { sessionId, keys: new Set(holder ? sessionBlobKeys(holder) : []) }
        }
        if (named.keys.has(key)) continue
        await ctx.blobs.delete(key, { signal })
        result.deleted++
      }
      return result
    },

    indexBlocks(options = {}) {
      return backfillBlockIndex(ctx, options)
    },
  }
}
