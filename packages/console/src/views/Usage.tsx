import { useEffect, useState } from 'react'
import type { Api } from '../api/client'
import type { TimeSeries, UsageTotals } from '../api/types'
import { BarChart } from '../components/BarChart'
import { dailyPoints } from '../components/chart-scale'
import { ErrorNote } from '../components/common'
import type { Features } from '../features'
import { formatBytes } from '../format'

interface TopItem {
  value: string
  requests: number
  bandwidth: number
}

const DAYS = 30

/** Some answers come wrapped in `{data}` and some not (as Pinata's do): take either. */
const unwrap = <T,>(body: T | { data: T }): T =>
  typeof body === 'object' && body !== null && 'data' in body ? (body as { data: T }).data : (body as T)

const day = (date: Date) => date.toISOString().slice(0, 10)

/** Storage used and gateway traffic of the last 30 days, where the server reports them. */
export function UsageView({ api, features }: { api: Api; features: Features }) {
  const [totals, setTotals] = useState<UsageTotals | null>(null)
  const [series, setSeries] = useState<TimeSeries | null>(null)
  const [top, setTop] = useState<TopItem[]>([])
  const [error, setError] = useState<unknown>(null)
  const [{ start, end }] = useState(() => {
    const now = new Date()
    return { start: new Date(now.getTime() - (DAYS - 1) * 86_400_000), end: now }
  })

  useEffect(() => {
    const range = { start_date: day(start), end_date: day(end) }
    if (features.usage) api.get<UsageTotals>('v3/data/userPinnedDataTotal').then((b) => setTotals(unwrap(b)), setError)
    if (features.analytics) {
      api
        .get<TimeSeries>('v3/ipfs/gateway_analytics_time_series', { ...range, by: 'day' })
        .then((b) => setSeries(unwrap(b)), setError)
      api
        .get<TopItem[]>('v3/ipfs/gateway_analytics_top', { ...range, by: 'cid', sort_by: 'requests', limit: 10 })
        .then((b) => setTop(unwrap(b) ?? []), setError)
    }
  }, [api, features, start, end])

  const periods = series?.time_periods ?? []
  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title" tabIndex={-1}>
        Usage
      </h2>
      <ErrorNote error={error} />
      {totals && (
        <dl className="facts tiles">
          <dt>Files stored</dt>
          <dd>{totals.pin_count}</dd>
          <dt>Bytes stored</dt>
          <dd>{formatBytes(totals.pin_size_total)}</dd>
        </dl>
      )}
      {series && (
        <>
          <BarChart
            title={`Gateway requests, last ${DAYS} days`}
            points={dailyPoints(periods, start, end, (p) => p.requests)}
            format={(v) => v.toLocaleString('en')}
            valueLabel="Requests"
            whole
          />
          <BarChart
            title={`Gateway bandwidth, last ${DAYS} days`}
            points={dailyPoints(periods, start, end, (p) => p.bandwidth)}
            format={formatBytes}
            valueLabel="Bandwidth"
            binary
          />
        </>
      )}
      {top.length > 0 && (
        <table>
          <caption>Most requested CIDs</caption>
          <thead>
            <tr>
              <th scope="col">CID</th>
              <th scope="col">Requests</th>
              <th scope="col">Bandwidth</th>
            </tr>
          </thead>
          <tbody>
            {top.map((item) => (
              <tr key={item.value}>
                <td className="mono break">{item.value}</td>
                <td>{item.requests}</td>
                <td>{formatBytes(item.bandwidth)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
