import { useCallback, useEffect, useState } from 'react'
import type { Api } from '../../api/client'
import type { WebhookDelivery, WebhookEndpoint } from '../../api/types'
import { ErrorNote } from '../../components/common'
import { Pager, usePages } from '../../components/Pager'
import { formatDate } from '../../format'

const PAGE_SIZE = 10

/** How often the first page is asked again while it is open: deliveries are made in the background. */
const POLL_MS = 2000

function statusText(delivery: WebhookDelivery): string {
  switch (delivery.status) {
    case 'pending':
      return delivery.attempts > 0 ? 'Waiting to retry' : 'Waiting'
    case 'delivering':
      return 'Sending'
    case 'delivered':
      return 'Delivered'
    case 'failed':
      return 'Failed'
  }
}

/**
 * One endpoint's deliveries, newest first: each event sent to it, where it stands, how many times
 * it was tried, the last answer (its status code, or why none came), when, and the next retry.
 */
export function Deliveries({ api, endpoint }: { api: Api; endpoint: WebhookEndpoint }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null)
  const [nextToken, setNextToken] = useState('')
  const [error, setError] = useState<unknown>(null)
  const pages = usePages()

  const load = useCallback(async () => {
    try {
      const { data } = await api.get<{ data: { deliveries: WebhookDelivery[]; next_page_token: string } }>(
        `v3/webhooks/${encodeURIComponent(endpoint.id)}/deliveries`,
        { limit: PAGE_SIZE, pageToken: pages.token },
      )
      setDeliveries(data.deliveries)
      setNextToken(data.next_page_token)
      setError(null)
    } catch (failure) {
      setError(failure)
    }
  }, [api, endpoint.id, pages.token])

  useEffect(() => {
    void load()
    if (pages.page !== 1) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [load, pages.page])

  const title = `Deliveries to ${endpoint.url}`
  return (
    <section className="block deliveries" aria-label={title}>
      <h4>Deliveries</h4>
      <ErrorNote error={error} />
      {deliveries && deliveries.length === 0 && (
        <p className="hint">None yet: each event of its types is sent as it happens.</p>
      )}
      {deliveries && deliveries.length > 0 && (
        <table className="cards">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Response</th>
              <th scope="col">Last attempt</th>
              <th scope="col">Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id}>
                {/* one element a cell: on a phone the cell is a grid of its label and its content */}
                <td data-label="Event">
                  <div>
                    <code>{delivery.event_type}</code>
                    <div className="hint mono break">{delivery.event_id}</div>
                  </div>
                </td>
                <td data-label="Status">
                  <span className={`badge ${delivery.status === 'delivered' ? 'ok' : delivery.status}`}>
                    {statusText(delivery)}
                  </span>
                </td>
                <td data-label="Attempts">{delivery.attempts}</td>
                <td data-label="Response">
                  <div>
                    {delivery.last_status_code ?? '—'}
                    {delivery.last_error && <div className="hint break">{delivery.last_error}</div>}
                  </div>
                </td>
                <td data-label="Last attempt">{formatDate(delivery.last_attempt_at)}</td>
                <td data-label="Next attempt">{formatDate(delivery.next_attempt_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deliveries && (pages.page > 1 || nextToken) && (
        <Pager page={pages.page} nextToken={nextToken} onPrevious={pages.previous} onNext={pages.next} />
      )}
    </section>
  )
}
