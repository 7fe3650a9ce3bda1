import { randomUUID } from 'node:crypto'
import type { PinRequestRecord } from '@pinfold/interface'
import { hasCode, invalid, notFound, PinfoldError } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import { nextPageToken, resolvePage } from '../common/pagination.js'
import { parseCid } from '../common/parse-cid.js'
import { validateKeyvalues, validateName } from '../common/validate.js'
import { isIdentity, unkeepable } from '../content/dag/blocks.js'
import type { PinOperations } from './api.js'
import { checkHostNodes } from './host-nodes.js'
import { type PinJobSettings, runPinJob, STOP } from './pin-job.js'

/** What the pin operations use of the service: what the jobs they run use. */
export type PinOperationSettings = PinJobSettings

export function createPinOperations(ctx: PinOperationSettings): PinOperations {
  // names this service's claims; a restarted process is a new worker and resumes by lease expiry
  const owner = `worker-${randomUUID()}`
  /** Jobs running in this process, so a deletion here stops its job at once. */
  const running = new Map<string, AbortController>()

  return {
    async add(actor, input, options) {
      const cid = await checkPinnableCid(input?.cid)
      const groupId = input.groupId ?? null
      const request: PinRequestRecord = {
        id: ctx.ids.recordId(),
        tenantId: actor.tenantId,
        userId: actor.userId,
        cid,
        name: validateName(input.name ?? cid),
        groupId,
        keyvalues: validateKeyvalues(input.keyvalues ?? {}),
        hostNodes: checkHostNodes(input.hostNodes ?? []),
        state: 'queued',
        failure: null,
        reason: null,
        createdAt: ctx.clock.now(),
        attempts: 0,
        leaseOwner: null,
        leaseExpiresAt: null,
      }
      if (groupId !== null && !(await ctx.records.groups.getGroup(actor.tenantId, 'public', groupId, options))) {
        throw notFound('group')
      }
      try {
        await ctx.records.pinRequests.createPinRequest(request, {
          ...options,
          maxOpenPerTenant: ctx.pinning.maxQueuedPerTenant,
        })
      } catch (error) {
        if (!hasCode(error, 'RATE_LIMITED')) throw error
        throw pinQueueFull(ctx.pinning.maxQueuedPerTenant, error)
      }
      return request
    },

    async list(actor, query = {}, options) {
      const page = resolvePage({ ...query, order: query.order ?? 'ASC' })
      const filter = { states: query.states, failures: query.failures, cid: query.cid }
      const result = await ctx.records.pinRequests.listPinRequests(actor.tenantId, filter, page, options)
      return { requests: result.items, nextPageToken: nextPageToken(result.items, result.hasMore) }
    },

    async remove(actor, id, options) {
      const deleted = await ctx.records.pinRequests.deletePinRequest(actor.tenantId, id, options)
      if (!deleted) throw notFound('pin request')
      running.get(id)?.abort(STOP.gone)
    },

    async runNext(options = {}) {
      const { signal } = options
      const request = await ctx.records.pinRequests.claimPinRequest(owner, ctx.clock.now(), ctx.pinning.leaseMs, {
        signal,
        maxRunningPerTenant: ctx.pinning.maxRunningPerTenant,
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

/** Pinata's plans refuse with 429 past their rate; a full share of the queue is answered alike. */
function pinQueueFull(cap: number, cause: unknown): PinfoldError {
  return new PinfoldError(
    'RATE_LIMITED',
    `pin queue full: ${cap} pin requests of this account are queued or running; wait for some to finish or delete some`,
    { cause, details: { retryAfterSeconds: 60 } },
  )
}

/** The CID as given, once it is one whose blocks Pinfold can verify, walk and keep. */
async function checkPinnableCid(value: unknown): Promise<string> {
  if (typeof value !== 'string' || value.trim() === '') throw invalid('cid must be a non-empty string')
  const cid: CID = parseCid(value)
  if (isIdentity(cid)) throw invalid('an identity CID holds its bytes in itself: there is nothing to pin')
  const problem = await unkeepable(cid)
  if (problem) throw invalid(`cid ${problem}`)
  return value
}
