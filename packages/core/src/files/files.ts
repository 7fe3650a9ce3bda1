import { invalid, notFound } from '@pinfold/interface'
import { nextPageToken, resolvePage } from '../common/pagination.js'
import { validateExpiry, validateKeyvaluePatch, validateName } from '../common/validate.js'
import { deleteContentBlobs } from '../content/dag/car-blob.js'
import { type EventFacts, fileFacts, tenantEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import type { FileOperations, FileUpdate } from './api.js'
import { validateFileFilter } from './list-filter.js'
import type { FileUpload } from './upload.js'

/** What the file operations use of the service; `upload` is `upload.ts`'s pipeline, shared with resumable uploads. */
export interface FileSettings extends Pick<ServiceContext, 'records' | 'blobs' | 'clock'> {
  upload: FileUpload
}

/** `FileService.files`: `upload` (`upload.ts`), and reading, listing, updating and deleting the tenant's files. */
export function createFileOperations(ctx: FileSettings): FileOperations {
  return {
    upload: ctx.upload.upload,

    async get(actor, network, id, options) {
      const file = await ctx.records.files.getFile(actor.tenantId, network, id, options)
      if (!file) throw notFound('file')
      return file
    },

    async list(actor, network, query = {}, options) {
      const page = resolvePage(query)
      const { limit: _l, order: _o, pageToken: _p, offset: _s, ...filter } = query
      const result = await ctx.records.files.listFiles(
        actor.tenantId,
        network,
        validateFileFilter(filter),
        page,
        options,
      )
      return { files: result.items, nextPageToken: nextPageToken(result.items, result.hasMore) }
    },

    async update(actor, network, id, update, options) {
      if (update.name === undefined && update.keyvalues === undefined && update.expiresAt === undefined) {
        throw invalid('nothing to update: give name, keyvalues or expires_at')
      }
      const updated = await ctx.records.files.updateFile(
        actor.tenantId,
        network,
        id,
        {
          ...(update.name !== undefined && { name: validateName(update.name) }),
          ...(update.keyvalues !== undefined && { keyvalues: validateKeyvaluePatch(update.keyvalues) }),
          ...(update.expiresAt !== undefined && { expiresAt: validateExpiry(update.expiresAt, ctx.clock.now()) }),
        },
        { ...options, events: [tenantEvent(actor, updateFacts(id, update))] },
      )
      if (!updated) throw notFound('file')
      return updated
    },

    async delete(actor, network, id, options) {
      // read first so the entry can name the CID a webhook acts on; a concurrent delete finds nothing
      const file = await ctx.records.files.getFile(actor.tenantId, network, id, options)
      if (!file) throw notFound('file')
      const events = [tenantEvent(actor, fileFacts('file.deleted', file))]
      const deleted = await ctx.records.files.deleteFile(actor.tenantId, network, id, { ...options, events })
      if (!deleted) throw notFound('file')
      // a pinned file's request (same id) goes with it: the Pinning Service API lists requests
      if (network === 'public')
        await ctx.records.pinRequests.deletePinRequest(actor.tenantId, id, { ...options, pinned: true })
      // the record is gone: releasing its bytes runs to its end (a failure leaves an orphan for the sweep)
      const released = deleted.releasedContent
      if (released) await deleteContentBlobs(ctx.blobs, released.blobKey)
    },
  }
}

/** Which fields an update set (the keyvalue keys it touched, not their values: they may be private). */
function updateFacts(id: string, update: FileUpdate): EventFacts {
  return {
    type: 'file.updated',
    target: { kind: 'file', id },
    data: {
      ...(update.name !== undefined && { name: update.name }),
      ...(update.keyvalues !== undefined && { keyvalueKeys: Object.keys(update.keyvalues) }),
      ...(update.expiresAt !== undefined && { expiresAt: update.expiresAt?.toISOString() ?? null }),
    },
  }
}
