import { useCallback, useState } from 'react'
import type { Api } from '../../api/client'
import type { WebhookEndpoint } from '../../api/types'
import { ConfirmButton, ErrorNote, Status } from '../../components/common'
import { Pager, usePages } from '../../components/Pager'
import { useAction } from '../../components/use-action'
import { useLoad } from '../../components/use-load'
import { formatDate } from '../../format'
import '../events.css'
import { Deliveries } from './Deliveries'
import { type CreatedEndpoint, NewEndpoint, SecretOnce } from './NewEndpoint'

const PAGE_SIZE = 20

/**
 * The tenant's webhook endpoints (`/v3/webhooks`): each event of the types an endpoint chose is
 * posted to it, signed by the Standard Webhooks scheme with the endpoint's secret (shown once, at
 * registration), and retried with backoff until delivered or given up.
 */
export function WebhooksView({ api }: { api: Api }) {
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | null>(null)
  const [nextToken, setNextToken] = useState('')
  const [created, setCreated] = useState<CreatedEndpoint | null>(null)
  const { error, setError, done, setDone, run } = useAction()
  const pages = usePages()

  const load = useLoad(
    useCallback(async () => {
      const { data } = await api.get<{ data: { endpoints: WebhookEndpoint[]; next_page_token: string } }>(
        'v3/webhooks',
        { limit: PAGE_SIZE, pageToken: pages.token },
      )
      setEndpoints(data.endpoints)
      setNextToken(data.next_page_token)
    }, [api, pages.token]),
    setError,
  )

  /** Runs a change, then says what it did (or shows why not) and reloads the list. */
  const change = (action: () => Promise<unknown>, said: string) =>
    run(async () => {
      await action()
      setDone(said)
      await load()
    })

  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title" tabIndex={-1}>
        Webhooks
      </h2>
      <p className="hint">
        Each event of the types an endpoint chose is posted to it as JSON, signed by the Standard Webhooks scheme (
        <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>) with the endpoint’s
        secret, and retried with backoff until it is answered with a 2xx.
      </p>
      <NewEndpoint
        api={api}
        onCreated={(endpoint) => {
          setDone(null)
          setCreated(endpoint)
          pages.reset()
          void load()
        }}
      />
      {created && <SecretOnce endpoint={created} onDone={() => setCreated(null)} />}
      {done && <Status>{done}</Status>}
      <ErrorNote error={error} />
      <h3>Endpoints</h3>
      {endpoints && endpoints.length === 0 && <p>No endpoints yet.</p>}
      {endpoints && endpoints.length > 0 && (
        <ul className="rows" aria-label="Endpoints">
          {endpoints.map((endpoint) => (
            <EndpointRow
              key={endpoint.id}
              api={api}
              endpoint={endpoint}
              onTest={() =>
                change(
                  () => api.send('POST', `v3/webhooks/${encodeURIComponent(endpoint.id)}/test`),
                  `A test event is queued for ${endpoint.url}.`,
                )
              }
              onEnable={(enabled) =>
                change(
                  () => api.send('PATCH', `v3/webhooks/${encodeURIComponent(endpoint.id)}`, { enabled }),
                  enabled ? `${endpoint.url} gets events again.` : `${endpoint.url} gets no new events.`,
                )
              }
              onDelete={() =>
                change(
                  () => api.send('DELETE', `v3/webhooks/${encodeURIComponent(endpoint.id)}`),
                  `Deleted ${endpoint.url}.`,
                )
              }
            />
          ))}
        </ul>
      )}
      {endpoints && (pages.page > 1 || nextToken) && (
        <Pager page={pages.page} nextToken={nextToken} onPrevious={pages.previous} onNext={pages.next} />
      )}
    </section>
  )
}

function EndpointRow({
  api,
  endpoint,
  onTest,
  onEnable,
  onDelete,
}: {
  api: Api
  endpoint: WebhookEndpoint
  onTest(): void
  onEnable(enabled: boolean): void
  onDelete(): void
}) {
  const [open, setOpen] = useState(false)
  const panel = `deliveries-${endpoint.id}`
  const name = `endpoint-${endpoint.id}`
  return (
    <li className="row column">
      <div>
        <strong id={name} className="mono break">
          {endpoint.url}
        </strong>{' '}
        <span className={endpoint.enabled ? 'badge ok' : 'badge'}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</span>
        <div className="hint">
          {endpoint.description ? `${endpoint.description} · ` : ''}added {formatDate(endpoint.created_at)}
        </div>
        <div>
          Events:{' '}
          {endpoint.event_types.map((type, i) => (
            <span key={type}>
              {i > 0 && ', '}
              <code>{type}</code>
            </span>
          ))}
        </div>
      </div>
      <div className="actions">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={open ? panel : undefined}
          aria-describedby={name}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide deliveries' : 'Show deliveries'}
        </button>
        <button
          type="button"
          aria-describedby={name}
          onClick={() => {
            setOpen(true)
            onTest()
          }}
        >
          Send a test event
        </button>
        <button type="button" aria-describedby={name} onClick={() => onEnable(!endpoint.enabled)}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <ConfirmButton
          label="Delete"
          what={endpoint.url}
          onConfirm={() => {
            // its deliveries stop being asked for first: a poll after the delete would be a 404
            setOpen(false)
            onDelete()
          }}
        />
      </div>
      {open && (
        <div id={panel}>
          <Deliveries api={api} endpoint={endpoint} />
        </div>
      )}
    </li>
  )
}
