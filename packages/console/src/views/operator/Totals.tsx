import { useCallback, useEffect, useState } from 'react'
import type { AdminTotals } from '../../api/admin'
import type { Api } from '../../api/client'
import { ErrorNote } from '../../components/common'
import { useAction } from '../../components/use-action'
import { formatBytes } from '../../format'
import { age } from './format'

/** What the deployment stores and queues: the figures `/metrics` exports, read when asked. */
export function TotalsView({ api }: { api: Api }) {
  const [totals, setTotals] = useState<AdminTotals | null>(null)
  const { error, busy: loading, run } = useAction()
  const [now, setNow] = useState(Date.now)

  const load = useCallback(
    () =>
      run(async () => {
        setTotals((await api.get<{ data: AdminTotals }>('admin/v1/totals')).data)
        setNow(Date.now())
      }),
    [api, run],
  )

  useEffect(() => {
    void load()
  }, [load])

  const stored = totals?.stored
  return (
    <section aria-labelledby="totals-title">
      <h2 id="totals-title" tabIndex={-1}>
        Totals
      </h2>
      <p className="hint">
        The figures <code>/metrics</code> exports as <code>pinfold_stored_*</code> and <code>pinfold_pin_requests</code>
        , counted now.
      </p>
      <button type="button" onClick={() => void load()} disabled={loading}>
        {loading ? 'Counting…' : 'Refresh'}
      </button>
      <ErrorNote error={error} />
      {stored && totals && (
        <>
          <h3>Stored</h3>
          <dl className="facts tiles">
            <dt>Files</dt>
            <dd>{stored.files.toLocaleString('en')}</dd>
            <dt>Logical bytes</dt>
            <dd>{formatBytes(stored.logical_bytes)}</dd>
            <dt>Contents</dt>
            <dd>{stored.contents.toLocaleString('en')}</dd>
            <dt>Physical bytes</dt>
            <dd>{formatBytes(stored.physical_bytes)}</dd>
            <dt>Blocks</dt>
            <dd>{stored.blocks.toLocaleString('en')}</dd>
          </dl>
          <table className="cards">
            <caption>Pin requests by status</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Requests</th>
                <th scope="col">Oldest</th>
              </tr>
            </thead>
            <tbody>
              {totals.pins.map((row) => (
                <tr key={row.state}>
                  <th scope="row" data-label="Status">
                    {row.state}
                  </th>
                  <td data-label="Requests">{row.count.toLocaleString('en')}</td>
                  <td data-label="Oldest">{row.oldest_created_at ? `${age(row.oldest_created_at, now)} ago` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  )
}
