import { invalid } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { jsonResponse, okData } from '../../openapi/responses.js'
import { data, json } from '../../responses.js'
import { defineRoute } from '../../router.js'
import {
  PinnedDataTotal,
  pinnedDataTotalToWire,
  TimeSeries,
  TimeSeriesQuery,
  TopItem,
  TopQuery,
  timeSeriesToWire,
  topItemToWire,
  UNRECORDED,
} from './wire.js'

function filterOf(query: Static<typeof TopQuery> | Static<typeof TimeSeriesQuery>) {
  const asked = query as Record<string, unknown>
  const unrecorded = UNRECORDED.find((name) => asked[name] !== undefined)
  if (unrecorded) throw invalid(`${unrecorded} is not recorded by Pinfold: filter by cid or file_name`)
  return { from: query.start_date, to: query.end_date, cid: query.cid, fileName: query.file_name }
}

const sortByOf = (sortBy: 'requests' | 'bandwidth' | undefined) => (sortBy === 'bandwidth' ? 'bytes' : sortBy)

const pinnedDataTotal = (path: string) =>
  defineRoute({
    method: 'GET',
    path,
    auth: 'org:files:read',
    summary: 'Files held and their total size',
    tags: ['Usage'],
    description: 'Unwrapped, as Pinata answers it (the SDK functions `pinnedFileCount` and `totalStorageUsage`).',
    responses: { '200': jsonResponse("The tenant's files on both networks", PinnedDataTotal) },
    async handle({ service, actor, signal }) {
      return json(pinnedDataTotalToWire(await service.usage.storage(actor, { signal })))
    },
  })

/**
 * Gateway analytics (`analytics.requests`, `analytics.bandwidth`, `analytics.summary` of the SDK)
 * over what the tenant's gateways served — its custom domains and private download links — and
 * storage totals. Counts reach the record store within seconds (see `service.usage.flush`).
 */
export const usageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v3/ipfs/gateway_analytics_top',
    auth: 'org:analytics:read',
    summary: 'Top CIDs or file names by requests or bandwidth',
    tags: ['Usage'],
    description: 'Default: the last 30 days, by `cid`, sorted by requests, descending, 100 items.',
    request: { query: TopQuery },
    responses: okData(Type.Array(TopItem)),
    async handle({ service, actor, signal }, { query }) {
      const by = query.by ?? 'cid'
      if (by !== 'cid' && by !== 'file_name') {
        const recorded = (UNRECORDED as readonly string[]).includes(by)
        throw invalid(
          recorded ? `${by} is not recorded by Pinfold: group by cid or file_name` : 'by must be cid or file_name',
        )
      }
      const ranked = await service.usage.rank(
        actor,
        {
          ...filterOf(query),
          by: by === 'cid' ? 'cid' : 'fileName',
          sortBy: sortByOf(query.sort_by) ?? 'requests',
          order: query.sort_order,
          limit: query.limit,
        },
        { signal },
      )
      return data(ranked.map(topItemToWire))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/ipfs/gateway_analytics_time_series',
    auth: 'org:analytics:read',
    summary: 'Requests and bandwidth per day or week',
    tags: ['Usage'],
    description:
      'Periods in time order unless `sort_by` is given; only periods with traffic are listed. Weeks start on Monday (UTC).',
    request: { query: TimeSeriesQuery },
    responses: okData(TimeSeries),
    async handle({ service, actor, signal }, { query }) {
      const series = await service.usage.timeSeries(
        actor,
        {
          ...filterOf(query),
          interval: query.by ?? 'day',
          sortBy: sortByOf(query.sort_by),
          order: query.sort_order,
          limit: query.limit,
        },
        { signal },
      )
      return data(timeSeriesToWire(series))
    },
  }),
  pinnedDataTotal('/data/userPinnedDataTotal'),
  pinnedDataTotal('/v3/data/userPinnedDataTotal'),
]
