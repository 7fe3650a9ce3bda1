import type { Actor, CallOptions, PinRequestRecord } from '@pinfold/interface'
import { invalid } from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'
import type { PinSearch } from './api.js'

/** The Pinning Service API's bounds on a listing: `limit` 1–1000, at most 10 CIDs, names ≤ 255. */
export const PIN_SEARCH_LIMITS = { limit: 1000, cids: 10, nameChars: 255 } as const

/**
 * The newest `limit` requests the filter matches, and how many it matches in all. Paging is by
 * `before`: the next page is the one created before the oldest of this one (creation instants
 * never repeat within a process, see `createStamps`).
 */
export async function searchPins(
  ctx: Pick<ServiceContext, 'records'>,
  actor: Actor,
  query: PinSearch,
  options?: CallOptions,
): Promise<{ requests: PinRequestRecord[]; count: number }> {
  const { limit, ...filter } = query
  if (!Number.isInteger(limit) || limit < 1 || limit > PIN_SEARCH_LIMITS.limit) {
    throw invalid(`limit must be an integer from 1 to ${PIN_SEARCH_LIMITS.limit}`)
  }
  if (filter.cids && (filter.cids.length === 0 || filter.cids.length > PIN_SEARCH_LIMITS.cids)) {
    throw invalid(`cid must list 1 to ${PIN_SEARCH_LIMITS.cids} CIDs`)
  }
  if (filter.name && filter.name.text.length > PIN_SEARCH_LIMITS.nameChars) {
    throw invalid(`name must be at most ${PIN_SEARCH_LIMITS.nameChars} characters`)
  }
  const store = ctx.records.pinRequests
  const [page, count] = await Promise.all([
    store.listPinRequests(actor.tenantId, filter, { limit, order: 'DESC' }, options),
    store.countPinRequests(actor.tenantId, filter, options),
  ])
  return { requests: page.items, count }
}
