import type { Actor, FileFilter, FileRecord, Network } from '@pinfold/interface'
import { invalid, notFound } from '@pinfold/interface'
import { deleteContentBlobs } from '../dag/car-blob.js'
import { nextPageToken, type PageQuery, resolvePage } from '../pagination.js'
import type { ServiceContext } from './context.js'
import { validateExpiry, validateKeyvaluePatch, validateName } from './validate.js'

export interface FileListQuery extends PageQuery, FileFilter {}

export interface FileUpdate {
  name?: string | undefined
  /** Merged into the file's keyvalues; `null` removes a key. */
  keyvalues?: Record<string, unknown> | undefined
  /** A future moment, or `null` to keep the file forever. */
  expiresAt?: Date | null | undefined
}

export function createFileOperations(ctx: ServiceContext) {
  const mustGet = async (actor: Actor, network: Network, id: string) => {
    const file = await ctx.records.getFile(actor.tenantId, network, id)
    if (!file) throw notFound('file')
    return file
  }

  return {
    get: mustGet,

    async list(actor: Actor, network: Network, query: FileListQuery = {}) {
      const page = resolvePage(query)
      const { limit: _l, order: _o, pageToken: _p, ...filter } = query
      const result = await ctx.records.listFiles(actor.tenantId, network, filter, page)
      return { files: result.items, nextPageToken: nextPageToken(result.items, result.hasMore) }
    },

    async update(actor: Actor, network: Network, id: string, update: FileUpdate): Promise<FileRecord> {
      if (update.name === undefined && update.keyvalues === undefined && update.expiresAt === undefined) {
        throw invalid('nothing to update: give name, keyvalues or expires_at')
      }
      const updated = await ctx.records.updateFile(actor.tenantId, network, id, {
        ...(update.name !== undefined && { name: validateName(update.name) }),
        ...(update.keyvalues !== undefined && { keyvalues: validateKeyvaluePatch(update.keyvalues) }),
        ...(update.expiresAt !== undefined && { expiresAt: validateExpiry(update.expiresAt, ctx.clock.now()) }),
      })
      if (!updated) throw notFound('file')
      return updated
    },

    /**
     * Deletes the record first, then — when no record references the CID any more — its bytes.
     * A failed blob delete leaves an unreferenced blob (found by the orphan sweep), never a record
     * pointing at missing bytes.
     */
    async delete(actor: Actor, network: Network, id: string): Promise<void> {
      const deleted = await ctx.records.deleteFile(actor.tenantId, network, id)
      if (!deleted) throw notFound('file')
      const released = deleted.releasedContent
      if (released) await deleteContentBlobs(ctx.blobs, released.blobKey)
    },
  }
}
