import { type FormEvent, useCallback, useEffect, useState } from 'react'
import type { AdminTenantSummary } from '../../api/admin'
import type { Api } from '../../api/client'
import { ErrorNote } from '../../components/common'
import { formatBytes } from '../../format'
import { limitsSummary } from './format'
import { tenantHref } from './links'
import { NewTenant } from './NewTenant'

const PAGE_SIZE = 20

type StatusFilter = '' | 'active' | 'suspended'

interface Query {
  search: string
  status: StatusFilter
  offset: number
}

/** Every tenant with its use and limits: searchable by id, filtered by status, paged. */
export function TenantsView({ api }: { api: Api }) {
  const [query, setQuery] = useState<Query>({ search: '', status: '', offset: 0 })
  const [draft, setDraft] = useState({ search: '', status: '' as StatusFilter })
  const [page, setPage] = useState<{ tenants: AdminTenantSummary[]; total: number } | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [loading, setLoading] = useState(false)

  const load = useCallback(async () => {
    setLoading(true)
    setError(null)
    try {
      const { data } = await api.get<{ data: { tenants: AdminTenantSummary[]; total: number } }>('admin/v1/tenants', {
        search: query.search,
        status: query.status,
        offset: query.offset,
        limit: PAGE_SIZE,
      })
      setPage(data)
    } catch (failure) {
      setError(failure)
      setPage(null)
    } finally {
      setLoading(false)
    }
  }, [api, query])

  useEffect(() => {
    void load()
  }, [load])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setQuery({ ...draft, search: draft.search.trim(), offset: 0 })
  }

  const first = query.offset + 1
  const last = query.offset + (page?.tenants.length ?? 0)

  return (
    <section aria-labelledby="tenants-title">
      <h2 id="tenants-title" tabIndex={-1}>
        Tenants
      </h2>
      <form className="filters" onSubmit={submit} aria-label="Find tenants">
        <label>
          Tenant id contains
          <input
            value={draft.search}
            spellCheck={false}
            onChange={(e) => setDraft({ ...draft, search: e.target.value })}
          />
        </label>
        <label>
          Status
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value as StatusFilter })}>
            <option value="">Any</option>
            <option value="active">Active</option>
            <option value="suspended">Suspended</option>
          </select>
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Search
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft({ search: '', status: '' })
              setQuery({ search: '', status: '', offset: 0 })
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      <div aria-busy={loading}>
        {page && page.tenants.length === 0 && <p>No tenants match.</p>}
        {page && page.tenants.length > 0 && (
          <table className="cards">
            <caption className="visually-hidden">Tenants {`${first} to ${last} of ${page.total}`}</caption>
            <thead>
              <tr>
                <th scope="col">Tenant</th>
                <th scope="col">Status</th>
                <th scope="col">Files</th>
                <th scope="col">Logical</th>
                <th scope="col">Sole</th>
                <th scope="col">Shared</th>
                <th scope="col">Limits</th>
              </tr>
            </thead>
            <tbody>
              {page.tenants.map((tenant) => (
                <tr key={tenant.id}>
                  <td data-label="Tenant" className="break">
                    <a href={tenantHref(tenant.id)}>{tenant.id}</a>
                  </td>
                  <td data-label="Status">
                    <TenantStatus suspension={tenant.suspension} />
                  </td>
                  <td data-label="Files">{tenant.usage.files.toLocaleString('en')}</td>
                  <td data-label="Logical">{formatBytes(tenant.accounting.logical_bytes)}</td>
                  <td data-label="Sole">{formatBytes(tenant.accounting.sole_bytes)}</td>
                  <td data-label="Shared">{formatBytes(tenant.accounting.shared_bytes)}</td>
                  <td data-label="Limits">{limitsSummary(tenant.limits)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {page && (
          <nav className="pager" aria-label="Pages">
            <button
              type="button"
              onClick={() => setQuery({ ...query, offset: Math.max(0, query.offset - PAGE_SIZE) })}
              disabled={query.offset === 0}
            >
              Previous
            </button>
            <span>{page.total === 0 ? 'None' : `${first}–${last} of ${page.total}`}</span>
            <button
              type="button"
              onClick={() => setQuery({ ...query, offset: query.offset + PAGE_SIZE })}
              disabled={last >= page.total}
            >
              Next
            </button>
          </nav>
        )}
      </div>
      <NewTenant api={api} />
    </section>
  )
}

/** "Active", or "Suspended" with whether its public content is hidden. */
export function TenantStatus({ suspension }: { suspension: AdminTenantSummary['suspension'] }) {
  if (!suspension) return <>Active</>
  return (
    <span className="badge warn">
      {suspension.hide_content ? 'Suspended, content hidden' : 'Suspended, content served'}
    </span>
  )
}
