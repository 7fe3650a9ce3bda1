import type { Actor, CallOptions } from '@pinfold/interface'
import { deleteContentBlobs } from '../content/dag/car-blob.js'
import { fileFacts, systemEvent, tenantEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'

/**
 * Deletes the public file a pin request made (it has the request's id), releasing its bytes when
 * no other file holds them; false when there is none (never made, or deleted already). The audit
 * log names `by` (the tenant's call that removed it) or, without one, the pin job.
 */
export async function deletePinFile(
  ctx: Pick<ServiceContext, 'records' | 'blobs'>,
  tenantId: string,
  id: string,
  options?: CallOptions,
  by?: Actor,
): Promise<boolean> {
  const file = await ctx.records.files.getFile(tenantId, 'public', id, options)
  if (!file) return false
  const facts = fileFacts('file.deleted', file)
  const event = by ? tenantEvent(by, facts) : systemEvent(tenantId, facts, 'pin-job')
  const deleted = await ctx.records.files.deleteFile(tenantId, 'public', id, { ...options, events: [event] })
  if (deleted?.releasedContent) await deleteContentBlobs(ctx.blobs, deleted.releasedContent.blobKey)
  return deleted !== undefined
}
