import { type CallOptions, type EventFilter, invalid } from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'
import { EVENT_PAGE_MAX, type EventOperations, type EventPage, type EventQuery } from './api.js'

export type EventSettings = Pick<ServiceContext, 'records'>

const DEFAULT_LIMIT = 100
/** As the store's constraint has it: dotted lowercase words. */
const EVENT_TYPE = /^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/
const MAX_TYPES = 32
const PRUNE_BATCH = 1000
const SEQ = /^[1-9][0-9]{0,15}$/

/** Reads of the audit log: the tenant's own view and the operator's; the retention's pruning. */
export function createEventOperations(ctx: EventSettings): EventOperations {
  async function page(filter: EventFilter, query: EventQuery, options?: CallOptions): Promise<EventPage> {
    const limit = query.limit ?? DEFAULT_LIMIT
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > EVENT_PAGE_MAX) {
      throw invalid(`limit must be an integer from 1 to ${EVENT_PAGE_MAX}`)
    }
    const order = query.order ?? 'desc'
    if (order !== 'asc' && order !== 'desc') throw invalid('order must be asc or desc')
    const token = query.pageToken
    if (token !== undefined && token !== '' && !SEQ.test(token))
      throw invalid('pageToken is not a page token of this list')
    const result = await ctx.records.events.listEvents(
      filter,
      { limit, order, afterSeq: token ? Number(token) : undefined },
      options,
    )
    const last = result.items.at(-1)
    return { events: result.items, nextPageToken: result.hasMore && last ? String(last.seq) : '' }
  }

  return {
    list: (actor, query = {}, options) => page({ ...checkFilter(query), tenantId: actor.tenantId }, query, options),

    async listAll(_operator, query = {}, options) {
      const { tenantId } = query
      if (tenantId !== undefined && (typeof tenantId !== 'string' || tenantId.length > 200)) {
        throw invalid('tenant must be a tenant id')
      }
      return page({ ...checkFilter(query), tenantId }, query, options)
    },

    async prune(before, options) {
      let pruned = 0
      for (;;) {
        const gone = await ctx.records.events.pruneEvents(before, PRUNE_BATCH, options)
        pruned += gone
        if (gone < PRUNE_BATCH) return pruned
      }
    },
  }
}

function checkFilter(query: EventQuery): EventFilter {
  const { types, from, to } = query
  if (types !== undefined) {
    if (!Array.isArray(types) || types.length > MAX_TYPES) throw invalid(`type takes at most ${MAX_TYPES} event types`)
    for (const type of types) {
      if (typeof type !== 'string' || !EVENT_TYPE.test(type)) {
        throw invalid(`${JSON.stringify(type)} is not an event type (dotted lowercase, such as file.created)`)
      }
    }
  }
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (value !== undefined && !(value instanceof Date && !Number.isNaN(value.getTime()))) {
      throw invalid(`${name} must be a date and time`)
    }
  }
  if (from && to && from.getTime() > to.getTime()) throw invalid('from must not be after to')
  return { types: types && types.length > 0 ? types : undefined, from, to }
}
