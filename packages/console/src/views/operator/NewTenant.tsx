import { type FormEvent, useState } from 'react'
import type { AdminTenant } from '../../api/admin'
import type { Api } from '../../api/client'
import { ErrorNote } from '../../components/common'
import { useAction } from '../../components/use-action'
import { tenantHref } from './links'

/**
 * Creates a tenant before its first request (`POST /admin/v1/tenants`), so limits or a suspension
 * can be set for it first; its page opens. An existing id is the server's 409, shown as it says it.
 */
export function NewTenant({ api }: { api: Api }) {
  const [id, setId] = useState('')
  const { error, busy, run } = useAction()

  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const { data } = await api.send<{ data: AdminTenant }>('POST', 'admin/v1/tenants', { id: id.trim() })
      location.hash = tenantHref(data.id)
    })
  }

  return (
    <form className="filters" onSubmit={create} aria-labelledby="new-tenant-title">
      <h3 id="new-tenant-title">New tenant</h3>
      <label>
        {/* one flex item: the label lays out its children in a column */}
        <span>
          Tenant id (its tokens’ <code>org</code>)
        </span>
        <input value={id} spellCheck={false} required onChange={(e) => setId(e.target.value)} />
      </label>
      <div className="actions">
        <button type="submit" disabled={busy}>
          Create tenant
        </button>
      </div>
      <div className="grow">
        <ErrorNote error={error} />
      </div>
    </form>
  )
}
