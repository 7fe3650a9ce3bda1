import { type FormEvent, useCallback, useState } from 'react'
import './events.css'
import type { Api } from '../api/client'
import type { AuditEvent, AuditEventPage } from '../api/types'
import { ErrorNote } from '../components/common'
import { type Column, PagedTable, usePages } from '../components/Pager'
import { usePageLoad } from '../components/use-page-load'
import { formatDate } from '../format'
import { WEBHOOK_EVENT_TYPES } from './webhooks/event-types'

const PAGE_SIZE = 25

/** The form's fields as typed: types comma-separated, times as `datetime-local` gives them (local time). */
interface AuditFilter {
  types: string
  from: string
  to: string
}

const NO_FILTER: AuditFilter = { types: '', from: '', to: '' }

const ACTOR_KIND: Record<AuditEvent['actor']['kind'], string> = {
  user: 'User',
  key: 'API key',
  operator: 'Operator',
  system: 'Pinfold',
}

/** The API's query for a filter: the types joined by commas, local times as instants. */
export function auditQuery(filter: AuditFilter): { type?: string; from?: string; to?: string } {
  const types = filter.types
    .split(/[\s,]+/)
    .map((type) => type.trim())
    .filter(Boolean)
  const instant = (label: string, value: string) => {
    if (!value) return undefined
    const date = new Date(value)
    if (Number.isNaN(date.getTime())) throw new Error(`${label} is not a date and time`)
    return date.toISOString()
  }
  return {
    type: types.length > 0 ? types.join(',') : undefined,
    from: instant('From', filter.from),
    to: instant('To', filter.to),
  }
}

/** An event's facts (`name: a.txt · cid: bafy…`), values that are not text as JSON. */
function facts(data: Record<string, unknown>): string {
  return Object.entries(data)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ')
}

/** The table's columns; one element a cell: on a phone the cell is a grid of its label and its content. */
const COLUMNS: Column<AuditEvent>[] = [
  { label: 'Time', cell: (event) => <time dateTime={event.at}>{formatDate(event.at)}</time> },
  { label: 'Type', cell: (event) => <code>{event.type}</code> },
  {
    label: 'Actor',
    cell: (event) => (
      <span>
        {ACTOR_KIND[event.actor.kind] ?? event.actor.kind} <span className="mono break">{event.actor.id}</span>
      </span>
    ),
  },
  {
    label: 'Target',
    cell: (event) => (
      <span>
        {event.target.kind} <span className="mono break">{event.target.id}</span>
      </span>
    ),
  },
  { label: 'Request id', cell: (event) => <span className="mono break">{event.request_id ?? '—'}</span> },
  { label: 'Details', className: 'break', cell: (event) => facts(event.data) },
]

/**
 * The tenant's audit log: every change to its records, newest first, with who made it (a user's
 * token, an API key, the operator, Pinfold itself), what it changed and the request that did
 * (the `X-Request-Id` its answer carried). Filtered by type and time range; paged by the API's cursor.
 */
export function AuditLogView({ api }: { api: Api }) {
  const [filter, setFilter] = useState<AuditFilter>(NO_FILTER)
  const [draft, setDraft] = useState<AuditFilter>(NO_FILTER)
  const pages = usePages()
  const fetchPage = useCallback(async () => {
    const query = { ...auditQuery(filter), limit: PAGE_SIZE, pageToken: pages.token }
    return (await api.get<{ data: AuditEventPage }>('v3/audit/events', query)).data
  }, [api, filter, pages.token])
  const { data: page, error, setError, loading } = usePageLoad(fetchPage)

  const apply = (next: AuditFilter) => {
    try {
      auditQuery(next)
    } catch (failure) {
      return setError(failure)
    }
    pages.reset()
    setFilter(next)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    apply(draft)
  }

  // suggestions: the types webhooks know and those of the page shown
  const suggestions = [...new Set([...WEBHOOK_EVENT_TYPES, ...(page?.events.map((e) => e.type) ?? [])])].sort()

  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title" tabIndex={-1}>
        Audit log
      </h2>
      <p className="hint">
        Every change to this account’s files, groups, keys, domains and payments, newest first: who made it, what it
        changed, and the request that did (its <code>X-Request-Id</code>).
      </p>
      <form className="filters" onSubmit={submit} aria-label="Filter events">
        <label className="grow">
          Event types
          <input
            value={draft.types}
            list="audit-types"
            spellCheck={false}
            placeholder="file.created, key.created"
            aria-describedby="audit-types-hint"
            onChange={(e) => setDraft({ ...draft, types: e.target.value })}
          />
        </label>
        <datalist id="audit-types">
          {suggestions.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
        <label>
          From (local time)
          <input
            type="datetime-local"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </label>
        <label>
          To (local time)
          <input type="datetime-local" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <p id="audit-types-hint" className="hint grow">
          One or more types, separated by commas; empty for every type.
        </p>
        <div className="actions">
          <button type="submit" className="primary">
            Search
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(NO_FILTER)
              apply(NO_FILTER)
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      <PagedTable
        className="results"
        tableClassName="audit"
        caption="Audit log events"
        columns={COLUMNS}
        rows={page?.events ?? null}
        rowKey={(event) => event.id}
        empty={<p>No events match.</p>}
        loading={loading}
        pager={
          page && (pages.page > 1 || page.next_page_token)
            ? { page: pages.page, nextToken: page.next_page_token, onPrevious: pages.previous, onNext: pages.next }
            : null
        }
      />
    </section>
  )
}
