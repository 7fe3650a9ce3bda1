import { useCallback, useState } from 'react'
import { type AdminPinRequest, PIN_STATES, type PinState } from '../../api/admin'
import type { Api } from '../../api/client'
import { ErrorNote } from '../../components/common'
import { type Column, PagedTable, usePages } from '../../components/Pager'
import { usePageLoad } from '../../components/use-page-load'
import { age } from './format'
import { tenantHref } from './links'

const PAGE_SIZE = 25

/** The queue's columns, ages counted to `now` (the time of the last answer). */
function columns(now: number): Column<AdminPinRequest>[] {
  return [
    { label: 'Tenant', className: 'break', cell: (pin) => <a href={tenantHref(pin.tenant_id)}>{pin.tenant_id}</a> },
    { label: 'CID', className: 'mono truncate', title: (pin) => pin.cid, cell: (pin) => pin.cid },
    { label: 'Name', className: 'break', cell: (pin) => pin.name || '—' },
    {
      label: 'Status',
      cell: (pin) => (
        <>
          {pin.state}
          {pin.failure && <div className="hint">{pin.failure}</div>}
        </>
      ),
    },
    { label: 'Age', cell: (pin) => age(pin.created_at, now) },
    { label: 'Attempts', cell: (pin) => pin.attempts },
  ]
}

/** Pin-by-CID requests of every tenant, oldest first by default: what waits, and for how long. */
export function PinQueueView({ api }: { api: Api }) {
  const [status, setStatus] = useState<PinState | ''>('')
  const [order, setOrder] = useState<'ASC' | 'DESC'>('ASC')
  const [now, setNow] = useState(Date.now)
  const pages = usePages()
  const fetchPage = useCallback(async () => {
    const { data } = await api.get<{ data: { pins: AdminPinRequest[]; next_page_token: string } }>('admin/v1/pins', {
      status,
      order,
      limit: PAGE_SIZE,
      pageToken: pages.token,
    })
    setNow(Date.now())
    return data
  }, [api, status, order, pages.token])
  const { data: list, error, loading, reload } = usePageLoad(fetchPage)

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
          <button type="button" onClick={() => void reload()}>
            Refresh
          </button>
        </div>
      </div>
      <ErrorNote error={error} />
      <PagedTable
        caption="Pin requests across tenants"
        columns={columns(now)}
        rows={list?.pins ?? null}
        rowKey={(pin) => pin.id}
        empty={<p>No pin requests{status ? ` ${status}` : ''}.</p>}
        loading={loading}
        pager={
          list && { page: pages.page, nextToken: list.next_page_token, onPrevious: pages.previous, onNext: pages.next }
        }
      />
    </section>
  )
}
