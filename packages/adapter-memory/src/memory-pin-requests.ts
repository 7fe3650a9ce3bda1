import {
  PinfoldError,
  type PinRequestFilter,
  type PinRequestRecord,
  type PinRequestRecordStore,
  throwIfAborted,
} from '@pinfold/interface'
import { paginate } from './memory-paging.js'
import type { MemoryState } from './memory-state.js'

/**
 * The pin-by-CID queue in a Map of its own (shared only with the deployment totals, which read it);
 * each method's checks and writes run without an await between them.
 */
export function memoryPinRequestRecords(
  state: MemoryState,
  requests = new Map<string, PinRequestRecord>(),
): PinRequestRecordStore {
  /** Each tenant's last turn: the value of `turns` when a claim last went to it. */
  const lastServed = new Map<string, number>()
  let turns = 0
  const copy = (r: PinRequestRecord): PinRequestRecord => structuredClone(r)
  const heldBy = (id: string, owner: string) => {
    const request = requests.get(id)
    return request?.state === 'retrieving' && request.leaseOwner === owner ? request : undefined
  }
  const isOpen = (r: PinRequestRecord) => r.state === 'queued' || r.state === 'retrieving'
  const byAge = (a: PinRequestRecord, b: PinRequestRecord) =>
    a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  const matching = (tenantId: string, filter: PinRequestFilter) =>
    [...requests.values()].filter((r) => r.tenantId === tenantId && matches(r, filter))
  /** Refuses a tenant's create past its cap (`RATE_LIMITED`), not counting `leaving`. */
  const checkCap = (tenantId: string, cap: number | undefined, leaving?: string) => {
    if (cap === undefined) return
    const open = [...requests.values()].filter((r) => r.tenantId === tenantId && isOpen(r) && r.id !== leaving).length
    if (open >= cap) throw new PinfoldError('RATE_LIMITED', `tenant ${tenantId} has ${cap} pin requests open`)
  }

  return {
    async createPinRequest(request, options) {
      throwIfAborted(options?.signal)
      if (requests.has(request.id)) throw new PinfoldError('CONFLICT', `pin request ${request.id} already exists`)
      checkCap(request.tenantId, options?.maxOpenPerTenant)
      state.appendEvents(options?.events)
      requests.set(request.id, copy(request))
    },

    async replacePinRequest(replacedId, request, options) {
      throwIfAborted(options?.signal)
      const replaced = requests.get(replacedId)
      if (!replaced || replaced.tenantId !== request.tenantId) return undefined
      if (requests.has(request.id)) throw new PinfoldError('CONFLICT', `pin request ${request.id} already exists`)
      checkCap(request.tenantId, options?.maxOpenPerTenant, replacedId)
      state.appendEvents(options?.events)
      const replaces = replaced.state === 'pinned' ? replaced.id : replaced.replaces
      requests.delete(replacedId)
      requests.set(request.id, { ...copy(request), replaces })
      return copy(replaced)
    },

    async getPinRequest(tenantId, id, options) {
      throwIfAborted(options?.signal)
      const request = requests.get(id)
      return request?.tenantId === tenantId ? copy(request) : undefined
    },

    async listPinRequests(tenantId, filter, page, options) {
      throwIfAborted(options?.signal)
      return paginate(matching(tenantId, filter), page, copy)
    },

    async listPinQueue({ states }, page, options) {
      throwIfAborted(options?.signal)
      return paginate(
        [...requests.values()].filter((r) => matches(r, { states })),
        page,
        copy,
      )
    },

    async countPinRequests(tenantId, filter, options) {
      throwIfAborted(options?.signal)
      return matching(tenantId, filter).length
    },

    async claimPinRequest(owner, now, leaseMs, options) {
      throwIfAborted(options?.signal)
      const live = (r: PinRequestRecord) =>
        r.state === 'retrieving' && r.leaseExpiresAt !== null && r.leaseExpiresAt.getTime() > now.getTime()
      const running = new Map<string, number>()
      const oldest = new Map<string, PinRequestRecord>()
      const excluded = new Set(options?.excludeTenants)
      for (const r of requests.values()) {
        if (excluded.has(r.tenantId)) continue
        if (live(r)) running.set(r.tenantId, (running.get(r.tenantId) ?? 0) + 1)
        else if (isOpen(r)) {
          const first = oldest.get(r.tenantId)
          if (!first || byAge(r, first) < 0) oldest.set(r.tenantId, r)
        }
      }
      const cap = options?.maxRunningPerTenant ?? Number.POSITIVE_INFINITY
      const runningOf = (r: PinRequestRecord) => running.get(r.tenantId) ?? 0
      const servedOf = (r: PinRequestRecord) => lastServed.get(r.tenantId) ?? 0
      // each tenant's oldest claimable request, in turn order
      const claimable = [...oldest.values()]
        .filter((r) => runningOf(r) < cap)
        .sort((a, b) => runningOf(a) - runningOf(b) || servedOf(a) - servedOf(b) || byAge(a, b))[0]
      if (!claimable) return undefined
      lastServed.set(claimable.tenantId, ++turns)
      claimable.state = 'retrieving'
      claimable.leaseOwner = owner
      claimable.leaseExpiresAt = new Date(now.getTime() + leaseMs)
      claimable.attempts += 1
      return copy(claimable)
    },

    async renewPinLease(id, owner, until, options) {
      throwIfAborted(options?.signal)
      const request = heldBy(id, owner)
      if (!request) return false
      request.leaseExpiresAt = new Date(until)
      return true
    },

    async finishPinRequest(id, owner, outcome, options) {
      throwIfAborted(options?.signal)
      const request = heldBy(id, owner)
      if (!request) return false
      state.appendEvents(options?.events)
      request.state = outcome.state
      request.failure = outcome.state === 'failed' ? outcome.failure : null
      request.reason = outcome.state === 'failed' ? outcome.reason : null
      request.dagSize = outcome.state === 'pinned' ? outcome.dagSize : null
      request.leaseOwner = null
      request.leaseExpiresAt = null
      return true
    },

    async releasePinRequest(id, owner, options) {
      throwIfAborted(options?.signal)
      const request = heldBy(id, owner)
      if (!request) return false
      request.state = 'queued'
      if (!options?.attempted) request.attempts -= 1
      request.leaseOwner = null
      request.leaseExpiresAt = null
      return true
    },

    async deletePinRequest(tenantId, id, options) {
      throwIfAborted(options?.signal)
      const request = requests.get(id)
      if (!request || request.tenantId !== tenantId || (request.state === 'pinned' && !options?.pinned))
        return undefined
      state.appendEvents(options?.events)
      requests.delete(id)
      return copy(request)
    },
  }
}

function matches(r: PinRequestRecord, filter: PinRequestFilter): boolean {
  return (
    (!filter.states || filter.states.includes(r.state)) &&
    (!filter.failures || (r.failure !== null && filter.failures.includes(r.failure))) &&
    (!filter.cids || filter.cids.includes(r.cid)) &&
    (!filter.name || nameMatches(r.name, filter.name)) &&
    (!filter.before || r.createdAt.getTime() < filter.before.getTime()) &&
    (!filter.after || r.createdAt.getTime() > filter.after.getTime()) &&
    (!filter.keyvalues || Object.entries(filter.keyvalues).every(([key, value]) => r.keyvalues[key] === value))
  )
}

function nameMatches(name: string, { text, match }: NonNullable<PinRequestFilter['name']>): boolean {
  switch (match) {
    case 'exact':
      return name === text
    case 'iexact':
      return name.toLowerCase() === text.toLowerCase()
    case 'partial':
      return name.includes(text)
    case 'ipartial':
      return name.toLowerCase().includes(text.toLowerCase())
  }
}
