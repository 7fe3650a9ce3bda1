import { type FormEvent, useCallback, useId, useState } from 'react'
import type { Api } from '../../api/client'
import type { WebhookEndpoint } from '../../api/types'
import { ErrorNote, Status } from '../../components/common'
import { Pager, usePages } from '../../components/Pager'
import { useAction } from '../../components/use-action'
import { useLoad } from '../../components/use-load'
import { formatDate } from '../../format'

const PAGE_SIZE = 20

/**
 * A tenant's webhook endpoints (`{path}/webhooks`) with their state, and the operator's Enable /
 * Disable of each: enabling brings back one Pinfold disabled for failing (its held deliveries are
 * sent); disabling takes an optional reason the tenant sees. Each is in the tenant's audit log.
 */
export function TenantWebhooks({ api, path }: { api: Api; path: string }) {
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | null>(null)
  const [nextToken, setNextToken] = useState('')
  const { error, setError, done, setDone, busy, run } = useAction()
  /** The endpoint whose disable form is open. */
  const [disabling, setDisabling] = useState<string | null>(null)
  const pages = usePages()
  const titleId = useId()

  const load = useLoad(
    useCallback(async () => {
      const { data } = await api.get<{ data: { endpoints: WebhookEndpoint[]; next_page_token: string } }>(
        `${path}/webhooks`,
        { limit: PAGE_SIZE, pageToken: pages.token },
      )
      setEndpoints(data.endpoints)
      setNextToken(data.next_page_token)
    }, [api, path, pages.token]),
    setError,
  )

  const change = (endpoint: WebhookEndpoint, action: 'enable' | 'disable', reason = '') =>
    run(async () => {
      const body = action === 'disable' && reason.trim() ? { reason: reason.trim() } : undefined
      await api.send('POST', `${path}/webhooks/${encodeURIComponent(endpoint.id)}/${action}`, body)
      setDisabling(null)
      setDone(
        action === 'enable'
          ? `Enabled ${endpoint.url}: its held deliveries are sent again.`
          : `Disabled ${endpoint.url}: it is sent nothing until it is enabled again.`,
      )
      await load()
    })

  return (
    <div className="block">
      <h3 id={titleId}>Webhook endpoints</h3>
      {endpoints && endpoints.length === 0 && <p>No webhook endpoints.</p>}
      {endpoints && endpoints.length > 0 && (
        <table className="cards" aria-labelledby={titleId}>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">State</th>
              <th scope="col">Failing since</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {endpoints.map((endpoint) => (
              <tr key={endpoint.id}>
                <th scope="row" data-label="Endpoint" className="break">
                  <span className="mono" id={`hook-${endpoint.id}`}>
                    {endpoint.url}
                  </span>
                  <div className="hint">{endpoint.event_types.join(', ')}</div>
                </th>
                <td data-label="State">
                  {endpoint.enabled ? (
                    'Enabled'
                  ) : (
                    <>
                      <span className="badge warn">Disabled</span>
                      <div className="hint">
                        {endpoint.disabled_at && `since ${formatDate(endpoint.disabled_at)}: `}
                        {endpoint.disabled_reason}
                      </div>
                    </>
                  )}
                </td>
                <td data-label="Failing since">{endpoint.failing_since ? formatDate(endpoint.failing_since) : '—'}</td>
                <td data-label="Action">
                  {endpoint.enabled ? (
                    disabling === endpoint.id ? (
                      <DisableForm
                        busy={busy}
                        url={endpoint.url}
                        onDisable={(reason) => change(endpoint, 'disable', reason)}
                        onCancel={() => setDisabling(null)}
                      />
                    ) : (
                      <button
                        type="button"
                        className="danger"
                        aria-describedby={`hook-${endpoint.id}`}
                        onClick={() => setDisabling(endpoint.id)}
                      >
                        Disable
                      </button>
                    )
                  ) : (
                    <button
                      type="button"
                      className="primary"
                      disabled={busy}
                      aria-describedby={`hook-${endpoint.id}`}
                      onClick={() => change(endpoint, 'enable')}
                    >
                      Enable
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {endpoints && (pages.page > 1 || nextToken) && (
        <Pager page={pages.page} nextToken={nextToken} onPrevious={pages.previous} onNext={pages.next} />
      )}
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
    </div>
  )
}

/** The second step of a disable: the reason the tenant will read (optional), then "Disable endpoint". */
function DisableForm({
  busy,
  url,
  onDisable,
  onCancel,
}: {
  busy: boolean
  url: string
  onDisable(reason: string): void
  onCancel(): void
}) {
  const [reason, setReason] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onDisable(reason)
  }
  return (
    <form className="stack" onSubmit={submit} aria-label={`Disable ${url}`}>
      <label>
        Reason (optional, shown to the tenant)
        {/* biome-ignore lint/a11y/noAutofocus: the field appears on the operator's own click, in its place */}
        <input value={reason} maxLength={500} autoFocus onChange={(e) => setReason(e.target.value)} />
      </label>
      <div className="actions">
        <button type="submit" className="danger" disabled={busy}>
          Disable endpoint
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
