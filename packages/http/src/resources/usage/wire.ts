import type { StorageUsage, UsageTimeSeries } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { named } from '../../schema.js'

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: 'must be a date, YYYY-MM-DD' })
const Order = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { errorMessage: 'must be asc or desc' })
const SortBy = Type.Union([Type.Literal('requests'), Type.Literal('bandwidth')], {
  errorMessage: 'must be requests or bandwidth',
})
/** Dimensions Pinata's analytics offer that Pinfold does not record: asked for, they are a 400, never ignored. */
export const UNRECORDED = ['user_agent', 'country', 'region', 'referer'] as const

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

export const TopQuery = Type.Object({
  ...AnalyticsQuery,
  by: Type.Optional(
    Type.String({ description: 'What to group by: `cid` (default) or `file_name`; other Pinata attributes are a 400' }),
  ),
})

export const TimeSeriesQuery = Type.Object({
  ...AnalyticsQuery,
  by: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('week')], { errorMessage: 'must be day or week' })),
})

export const TopItem = named(
  'AnalyticsTopItem',
  Type.Object({ value: Type.String(), requests: Type.Integer(), bandwidth: Type.Integer({ description: 'Bytes' }) }),
)

export const TimeSeries = named(
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

export const PinnedDataTotal = named(
  'UserPinnedDataTotal',
  Type.Object({
    pin_count: Type.Integer(),
    pin_size_total: Type.Integer({ description: 'Bytes' }),
    pin_size_with_replications_total: Type.Integer({ description: 'Bytes; Pinfold keeps one copy' }),
  }),
)

export function topItemToWire({
  value,
  requests,
  bytes,
}: {
  value: string
  requests: number
  bytes: number
}): Static<typeof TopItem> {
  return { value, requests, bandwidth: bytes }
}

export function timeSeriesToWire(series: UsageTimeSeries): Static<typeof TimeSeries> {
  return {
    total_requests: series.totalRequests,
    total_bandwidth: series.totalBytes,
    time_periods: series.periods.map((p) => ({
      period_start_time: `${p.start}T00:00:00Z`,
      requests: p.requests,
      bandwidth: p.bytes,
    })),
  }
}

/** Pinfold keeps one copy: the size with replications is the size. */
export function pinnedDataTotalToWire({ files, bytes }: StorageUsage): Static<typeof PinnedDataTotal> {
  return { pin_count: files, pin_size_total: bytes, pin_size_with_replications_total: bytes }
}
