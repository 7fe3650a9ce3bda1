import { randomUUID } from 'node:crypto'
import { hasCode, notFound } from '@pinfold/interface'
import { nextPageToken, resolvePage } from '../common/pagination.js'
import { pinFacts, tenantEvent } from '../events/new-event.js'
import { admitPin } from './admit-pin.js'
import type { PinOperations } from './api.js'
import { deletePinFile } from './delete-pin-file.js'
import type { PinJobs } from './jobs.js'
import { createStamps, newPinRequest } from './new-request.js'
import { type PinJobSettings, runPinJob, STOP } from './pin-job.js'
import { pinQueueFull } from './queue-full.js'
import { replacePin } from './replace.js'
import { searchPins } from './search.js'
import { unpin } from './unpin.js'

/** What the pin operations use of the service: what the jobs they run use. */
export type PinOperationSettings = PinJobSettings

export function createPinOperations(ctx: PinOperationSettings): PinOperations {
  // names this service's claims; a restarted process is a new worker and resumes by lease expiry
  const owner = `worker-${randomUUID()}`
  /** Jobs running in this process, so a deletion here stops its job at once. */
  const running = new Map<string, AbortController>()
  const jobs: PinJobs = {
    ctx,
    stamp: createStamps(ctx.clock),
    stop: (id) => running.get(id)?.abort(STOP.gone),
  }

  return {
    async add(actor, input, options) {
      const request = await newPinRequest(actor, input, ctx.ids.recordId(), jobs.stamp(), ctx.deny)
      const groupId = request.groupId
      if (groupId !== null && !(await ctx.records.groups.getGroup(actor.tenantId, 'public', groupId, options))) {
        throw notFound('group')
      }
      const cap = await admitPin(ctx, actor.tenantId, options)
      try {
        const events = [tenantEvent(actor, pinFacts('pin.queued', request))]
        await ctx.records.pinRequests.createPinRequest(request, { ...options, maxOpenPerTenant: cap, events })
      } catch (error) {
        if (!hasCode(error, 'RATE_LIMITED')) throw error
        throw pinQueueFull(cap, error)
      }
      return request
    },

    async get(actor, id, options) {
      const request = await ctx.records.pinRequests.getPinRequest(actor.tenantId, id, options)
      if (!request) throw notFound('pin request')
      return request
    },

    async list(actor, query = {}, options) {
      const page = resolvePage({ ...query, order: query.order ?? 'ASC' })
      const filter = { states: query.states, failures: query.failures, cids: query.cids }
      const result = await ctx.records.pinRequests.listPinRequests(actor.tenantId, filter, page, options)
      return { requests: result.items, nextPageToken: nextPageToken(result.items, result.hasMore) }
    },

    search: (actor, query, options) => searchPins(ctx, actor, query, options),

    replace: (actor, id, input, options) => replacePin(jobs, actor, id, input, options),

    async remove(actor, id, options) {
      const event = tenantEvent(actor, { type: 'pin.removed', target: { kind: 'pin', id } })
      const deleted = await ctx.records.pinRequests.deletePinRequest(actor.tenantId, id, {
        ...options,
        events: [event],
      })
      if (!deleted) throw notFound('pin request')
      jobs.stop(id)
      // it was to replace a pinned file: removing the replacement removes what it replaced
      if (deleted.replaces) await deletePinFile(ctx, actor.tenantId, deleted.replaces, options, actor)
    },

    unpin: (actor, id, options) => unpin(jobs, actor, id, options),

    async runNext(options = {}) {
      const { signal } = options
      // a suspended tenant's requests wait in the queue, untouched, until it is resumed
      const excludeTenants = await ctx.suspendedTenants({ signal })
      const request = await ctx.records.pinRequests.claimPinRequest(owner, ctx.clock.now(), ctx.pinning.leaseMs, {
        signal,
        maxRunningPerTenant: ctx.pinning.maxRunningPerTenant,
        excludeTenants,
      })
      if (!request) return false
      const controller = new AbortController()
      const stop = () => controller.abort(signal?.reason)
      signal?.addEventListener('abort', stop, { once: true })
      if (signal?.aborted) stop() // aborted while the claim was answered: hand it straight back
      running.set(request.id, controller)
      try {
        await runPinJob(ctx, request, owner, controller)
      } finally {
        running.delete(request.id)
        signal?.removeEventListener('abort', stop)
      }
      return true
    },
  }
}
