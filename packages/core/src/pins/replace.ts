import type { Actor, CallOptions, PinRequestRecord } from '@pinfold/interface'
import { hasCode, notFound } from '@pinfold/interface'
import { pinFacts, tenantEvent } from '../events/new-event.js'
import { admitPin } from './admit-pin.js'
import type { PinInput } from './api.js'
import type { PinJobs } from './jobs.js'
import { newPinRequest } from './new-request.js'
import { pinQueueFull } from './queue-full.js'

/**
 * Replaces a request with a new one (the Pinning Service API's `POST /pins/{requestid}`): one
 * atomic step in the store, so the old request id is gone exactly when the new one exists. A
 * pinned request's file stays until the new request ends (its job deletes it then), so the
 * blocks the two DAGs share are held throughout; an unfinished one's job is stopped.
 */
export async function replacePin(
  jobs: PinJobs,
  actor: Actor,
  id: string,
  input: PinInput,
  options?: CallOptions,
): Promise<PinRequestRecord> {
  const { ctx } = jobs
  // the Pinning Service API has no groups: a replacement is in none, as its original was
  const request = await newPinRequest(actor, { ...input, groupId: null }, ctx.ids.recordId(), jobs.stamp(), ctx.deny)
  const cap = await admitPin(ctx, actor.tenantId, options)
  let replaced: PinRequestRecord | undefined
  try {
    const events = [tenantEvent(actor, pinFacts('pin.queued', request, { replaces: id }))]
    replaced = await ctx.records.pinRequests.replacePinRequest(id, request, {
      ...options,
      maxOpenPerTenant: cap,
      events,
    })
  } catch (error) {
    if (!hasCode(error, 'RATE_LIMITED')) throw error
    throw pinQueueFull(cap, error)
  }
  if (!replaced) throw notFound('pin request')
  jobs.stop(id)
  return { ...request, replaces: replaced.state === 'pinned' ? replaced.id : replaced.replaces }
}
