import { type FormEvent, useCallback, useState } from 'react'
import type { AdminTenantSummary } from '../../api/admin'
import type { Api } from '../../api/client'
import { ErrorNote } from '../../components/common'
import { type Column, PagedTable, useOffsetPages } from '../../components/Pager'
import { usePageLoad } from '../../components/use-page-load'
import { formatBytes } from '../../format'
import { limitsSummary } from './format'
import { tenantHref } from './links'
import { NewTenant } from './NewTenant'

const PAGE_SIZE = 20

type StatusFilter = '' | 'active' | 'suspended'

interface Query {
  search: string
  status: StatusFilter
}

const COLUMNS: Column<AdminTenantSummary>[] = [
  { label: 'Tenant', className: 'break', cell: (tenant) => <a href={tenantHref(tenant.id)}>{tenant.id}</a> },
  { label: 'Status', cell: (tenant) => <TenantStatus suspension={tenant.suspension} /> },
  { label: 'Files', cell: (tenant) => tenant.usage.files.toLocaleString('en') },
  { label: 'Logical', cell: (tenant) => formatBytes(tenant.accounting.logical_bytes) },
  { label: 'Sole', cell: (tenant) => formatBytes(tenant.accounting.sole_bytes) },
  { label: 'Shared', cell: (tenant) => formatBytes(tenant.accounting.shared_bytes) },
  { label: 'Limits', cell: (tenant) => limitsSummary(tenant.limits) },
]

/** Every tenant with its use and limits: searchable by id, filtered by status, paged. */
export function TenantsView({ api }: { api: Api }) {
  const [query, setQuery] = useState<Query>({ search: '', status: '' })
  const [draft, setDraft] = useState({ search: '', status: '' as StatusFilter })
  const pages = useOffsetPages(PAGE_SIZE)
  const fetchPage = useCallback(async () => {
    const { data } = await api.get<{ data: { tenants: AdminTenantSummary[]; total: number } }>('admin/v1/tenants', {
      search: query.search,
      status: query.status,
      offset: pages.offset,
      limit: PAGE_SIZE,
    })
    return data
  }, [api, query, pages.offset])
  const { data: page, error, loading } = usePageLoad(fetchPage)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    pages.reset()
    setQuery({ ...draft, search: draft.search.trim() })
  }

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
              pages.reset()
              setQuery({ search: '', status: '' })
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      <PagedTable
        caption={`Tenants ${pages.offset + 1} to ${pages.offset + (page?.tenants.length ?? 0)} of ${page?.total ?? 0}`}
        columns={COLUMNS}
        rows={page?.tenants ?? null}
        rowKey={(tenant) => tenant.id}
        empty={<p>No tenants match.</p>}
        loading={loading}
        pager={
          page && {
            offset: pages.offset,
            shown: page.tenants.length,
            total: page.total,
            onPrevious: pages.previous,
            onNext: pages.next,
          }
        }
      />
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
