import { invalid } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { jsonResponse, okData } from '../openapi/schemas.js'
import { data, json } from '../responses.js'
import { defineRoute } from '../router.js'
import { named } from '../schema.js'

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: 'must be a date, YYYY-MM-DD' })
const Order = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { errorMessage: 'must be asc or desc' })
const SortBy = Type.Union([Type.Literal('requests'), Type.Literal('bandwidth')], {
  errorMessage: 'must be requests or bandwidth',
})
/** Dimensions Pinata's analytics offer that Pinfold does not record: asked for, they are a 400, never ignored. */
const UNRECORDED = ['user_agent', 'country', 'region', 'referer'] as const

const AnalyticsQuery = {
  gateway_domain: Type.Optional(
    Type.String({ description: "Accepted and not used: a tenant's counts cover all of its gateways" }),
  ),
  start_date: Type.Optional(Day),
  end_date: Type.Optional(Day),
  cid: Type.Optional(Type.String()),
  file_name: Type.Optional(Type.String()),
  ...Object.fromEntries(
    UNRECORDED.map((name) => [name, Type.Optional(Type.String({ description: 'Not recorded (400)' }))]),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  sort_order: Type.Optional(Order),
  sort_by: Type.Optional(SortBy),
}

const TopQuery = Type.Object({
  ...AnalyticsQuery,
  by: Type.Optional(
    Type.String({ description: 'What to group by: `cid` (default) or `file_name`; other Pinata attributes are a 400' }),
  ),
})

const TimeSeriesQuery = Type.Object({
  ...AnalyticsQuery,
  by: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('week')], { errorMessage: 'must be day or week' })),
})

const TopItem = named(
  'AnalyticsTopItem',
  Type.Object({ value: Type.String(), requests: Type.Integer(), bandwidth: Type.Integer({ description: 'Bytes' }) }),
)

const TimeSeries = named(
  'AnalyticsTimeSeries',
  Type.Object({
    total_requests: Type.Integer(),
    total_bandwidth: Type.Integer(),
    time_periods: Type.Array(
      Type.Object({
        period_start_time: Type.String({ format: 'date-time' }),
        requests: Type.Integer(),
        bandwidth: Type.Integer(),
      }),
    ),
  }),
)

const PinnedDataTotal = named(
  'UserPinnedDataTotal',
  Type.Object({
    pin_count: Type.Integer(),
    pin_size_total: Type.Integer({ description: 'Bytes' }),
    pin_size_with_replications_total: Type.Integer({ description: 'Bytes; Pinfold keeps one copy' }),
  }),
)

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
      const { files, bytes } = await service.usage.storage(actor, { signal })
      return json({ pin_count: files, pin_size_total: bytes, pin_size_with_replications_total: bytes })
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
      return data(ranked.map(({ value, requests, bytes }) => ({ value, requests, bandwidth: bytes })))
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
      return data({
        total_requests: series.totalRequests,
        total_bandwidth: series.totalBytes,
        time_periods: series.periods.map((p) => ({
          period_start_time: `${p.start}T00:00:00Z`,
          requests: p.requests,
          bandwidth: p.bytes,
        })),
      })
    },
  }),
  pinnedDataTotal('/data/userPinnedDataTotal'),
  pinnedDataTotal('/v3/data/userPinnedDataTotal'),
]
