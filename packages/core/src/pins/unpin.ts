import type { Actor, CallOptions } from '@pinfold/interface'
import { notFound } from '@pinfold/interface'
import { pinFacts, tenantEvent } from '../events/new-event.js'
import { deletePinFile } from './delete-pin-file.js'
import type { PinJobs } from './jobs.js'

/**
 * Removes a request in any state (the Pinning Service API's `DELETE /pins/{requestid}`): a pinned
 * one's file is deleted first, then the request, so a retry after a crash between the two still
 * finds the request and finishes the job; an unfinished one's job is stopped; a file it was to
 * replace goes too. `NOT_FOUND` for an unknown or another tenant's id.
 */
export async function unpin(jobs: PinJobs, actor: Actor, id: string, options?: CallOptions): Promise<void> {
  const { ctx } = jobs
  const request = await ctx.records.pinRequests.getPinRequest(actor.tenantId, id, options)
  if (!request) throw notFound('pin request')
  if (request.state === 'pinned') await deletePinFile(ctx, actor.tenantId, id, options, actor)
  const events = [tenantEvent(actor, pinFacts('pin.removed', request))]
  const deleted = await ctx.records.pinRequests.deletePinRequest(actor.tenantId, id, {
    ...options,
    pinned: true,
    events,
  })
  if (!deleted) throw notFound('pin request')
  jobs.stop(id)
  // pinned between the read and the delete: its file is made by now (the job makes it, then finishes)
  if (deleted.state === 'pinned' && request.state !== 'pinned')
    await deletePinFile(ctx, actor.tenantId, id, options, actor)
  if (deleted.replaces) await deletePinFile(ctx, actor.tenantId, deleted.replaces, options, actor)
}
