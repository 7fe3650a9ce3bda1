import { useCallback, useEffect, useState } from 'react'
import { type AdminPinRequest, PIN_STATES, type PinState } from '../../api/admin'
import type { Api } from '../../api/client'
import { ErrorNote, Pager, usePages } from '../../components/common'
import { age } from './format'
import { tenantHref } from './links'

const PAGE_SIZE = 25

/** Pin-by-CID requests of every tenant, oldest first by default: what waits, and for how long. */
export function PinQueueView({ api }: { api: Api }) {
  const [status, setStatus] = useState<PinState | ''>('')
  const [order, setOrder] = useState<'ASC' | 'DESC'>('ASC')
  const [list, setList] = useState<{ pins: AdminPinRequest[]; next_page_token: string } | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [loading, setLoading] = useState(false)
  const [now, setNow] = useState(Date.now)
  const pages = usePages()

  const load = useCallback(async () => {
    setLoading(true)
    setError(null)
    try {
      const { data } = await api.get<{ data: { pins: AdminPinRequest[]; next_page_token: string } }>('admin/v1/pins', {
        status,
        order,
        limit: PAGE_SIZE,
        pageToken: pages.token,
      })
      setList(data)
      setNow(Date.now())
    } catch (failure) {
      setError(failure)
      setList(null)
    } finally {
      setLoading(false)
    }
  }, [api, status, order, pages.token])

  useEffect(() => {
    void load()
  }, [load])

  return (
    <section aria-labelledby="pins-title">
      <h2 id="pins-title" tabIndex={-1}>
        Pin queue
      </h2>
      <div className="filters">
        <label>
          Status
          <select
            value={status}
            onChange={(e) => {
              pages.reset()
              setStatus(e.target.value as PinState | '')
            }}
          >
            <option value="">Any</option>
            {PIN_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
        </label>
        <label>
          Order
          <select
            value={order}
            onChange={(e) => {
              pages.reset()
              setOrder(e.target.value as 'ASC' | 'DESC')
            }}
          >
            <option value="ASC">Oldest first</option>
            <option value="DESC">Newest first</option>
          </select>
        </label>
        <div className="actions">
          <button type="button" onClick={() => void load()}>
            Refresh
          </button>
        </div>
      </div>
      <ErrorNote error={error} />
      <div aria-busy={loading}>
        {list && list.pins.length === 0 && <p>No pin requests{status ? ` ${status}` : ''}.</p>}
        {list && list.pins.length > 0 && (
          <table className="cards">
            <caption className="visually-hidden">Pin requests across tenants</caption>
            <thead>
              <tr>
                <th scope="col">Tenant</th>
                <th scope="col">CID</th>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Age</th>
                <th scope="col">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {list.pins.map((pin) => (
                <tr key={pin.id}>
                  <td data-label="Tenant" className="break">
                    <a href={tenantHref(pin.tenant_id)}>{pin.tenant_id}</a>
                  </td>
                  <td data-label="CID" className="mono truncate" title={pin.cid}>
                    {pin.cid}
                  </td>
                  <td data-label="Name" className="break">
                    {pin.name || '—'}
                  </td>
                  <td data-label="Status">
                    {pin.state}
                    {pin.failure && <div className="hint">{pin.failure}</div>}
                  </td>
                  <td data-label="Age">{age(pin.created_at, now)}</td>
                  <td data-label="Attempts">{pin.attempts}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {list && (
          <Pager page={pages.page} nextToken={list.next_page_token} onPrevious={pages.previous} onNext={pages.next} />
        )}
      </div>
    </section>
  )
}
