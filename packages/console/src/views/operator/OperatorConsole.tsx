import { useEffect, useMemo, useRef, useState } from 'react'
import { operatorApi } from '../../api/admin'
import type { Api } from '../../api/client'
import { DenyRulesView } from './DenyRules'
import { TENANT_PREFIX } from './links'
import { PinQueueView } from './PinQueue'
import { TenantView } from './Tenant'
import { TenantsView } from './Tenants'
import { TotalsView } from './Totals'
import './operator.css'

type Section = 'tenants' | 'pin-queue' | 'totals' | 'deny-rules'

const SECTIONS: { name: Section; label: string }[] = [
  { name: 'tenants', label: 'Tenants' },
  { name: 'pin-queue', label: 'Pin queue' },
  { name: 'totals', label: 'Totals' },
  { name: 'deny-rules', label: 'Deny rules' },
]

/** Where the fragment points: a section, or one tenant's page (`#tenant/{id}`). */
type Place = { section: Section } | { section: 'tenants'; tenant: string }

function placeOfHash(): Place {
  const hash = location.hash
  if (hash.startsWith(TENANT_PREFIX)) {
    try {
      return { section: 'tenants', tenant: decodeURIComponent(hash.slice(TENANT_PREFIX.length)) }
    } catch {
      return { section: 'tenants' }
    }
  }
  const section = SECTIONS.find((entry) => `#${entry.name}` === hash)
  return { section: section?.name ?? 'tenants' }
}

/**
 * The operator area: the whole console for an operator token (which the tenant API refuses, so no
 * tenant view is shown beside it). Sections live in the URL's fragment, as the tenant views do.
 */
export function OperatorConsole({
  api: given,
  onSignOut,
  onEnded,
}: {
  api: Api
  onSignOut(): void
  /** The server stopped taking the token (it expired): the session is over. */
  onEnded(message: string): void
}) {
  const api = useMemo(() => operatorApi(given, onEnded), [given, onEnded])
  const [place, setPlace] = useState<Place>(placeOfHash)
  const main = useRef<HTMLElement>(null)

  useEffect(() => {
    const onHash = () => {
      // the skip link's #main leaves the place as it is
      if (location.hash !== '#main') setPlace(placeOfHash())
      // move focus to the new view's heading, as a page load would for a screen reader
      requestAnimationFrame(() => main.current?.querySelector<HTMLElement>('h2')?.focus())
    }
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])

  return (
    <div className="app">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <h1>
          Pinfold <span className="badge">Operator</span>
        </h1>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map((entry) => (
              <li key={entry.name}>
                <a
                  href={`#${entry.name}`}
                  aria-current={place.section === entry.name && !('tenant' in place) ? 'page' : undefined}
                >
                  {entry.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" className="signout" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {'tenant' in place ? (
          <TenantView key={place.tenant} api={api} id={place.tenant} />
        ) : (
          <>
            {place.section === 'tenants' && <TenantsView api={api} />}
            {place.section === 'pin-queue' && <PinQueueView api={api} />}
            {place.section === 'totals' && <TotalsView api={api} />}
            {place.section === 'deny-rules' && <DenyRulesView api={api} />}
          </>
        )}
      </main>
    </div>
  )
}
