import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { isOperator, type Role } from './api/admin'
import { apiBaseOfPage, createApi } from './api/client'
import type { Network } from './api/types'
import { ErrorNote } from './components/common'
import { detectFeatures, type Features } from './features'
import { forgetToken, savedToken, saveToken } from './session'
import { AuditLogView } from './views/AuditLog'
import { DomainsView } from './views/Domains'
import { type FilesFilter, FilesView } from './views/Files'
import { GatewayDenyRulesView } from './views/GatewayDenyRules'
import { GroupsView } from './views/Groups'
import { KeysView } from './views/Keys'
import { OperatorConsole } from './views/operator/OperatorConsole'
import { PaymentsView } from './views/Payments'
import { PinsView } from './views/Pins'
import { SearchView } from './views/Search'
import { SignIn } from './views/SignIn'
import { UploadView } from './views/Upload'
import { UsageView } from './views/Usage'
import { WebhooksView } from './views/webhooks/Webhooks'

type ViewName =
  | 'files'
  | 'upload'
  | 'groups'
  | 'pins'
  | 'domains'
  | 'deny-rules'
  | 'search'
  | 'payments'
  | 'usage'
  | 'keys'
  | 'webhooks'
  | 'audit'

const VIEWS: { name: ViewName; label: string; needs?: (features: Features) => boolean }[] = [
  { name: 'files', label: 'Files' },
  { name: 'upload', label: 'Upload' },
  { name: 'groups', label: 'Groups' },
  { name: 'pins', label: 'Pin by CID' },
  { name: 'domains', label: 'Gateways' },
  { name: 'deny-rules', label: 'Deny rules' },
  { name: 'search', label: 'Search' },
  { name: 'payments', label: 'Payments' },
  { name: 'usage', label: 'Usage', needs: (f) => f.usage || f.analytics },
  { name: 'keys', label: 'API keys', needs: (f) => f.keys },
  { name: 'webhooks', label: 'Webhooks' },
  { name: 'audit', label: 'Audit log' },
]

const NO_FEATURES: Features = { keys: false, usage: false, analytics: false }

/** The view in the URL's fragment, so Back and bookmarks work (the fragment never holds a secret). */
function viewOfHash(): ViewName | undefined {
  const name = location.hash.slice(1)
  return VIEWS.some((view) => view.name === name) ? (name as ViewName) : undefined
}

export function App() {
  const base = useMemo(() => apiBaseOfPage(location), [])
  const [token, setToken] = useState(savedToken)
  const [notice, setNotice] = useState<string | null>(null)
  const endSession = useCallback((message: string) => {
    forgetToken()
    setToken(null)
    setNotice(`Signed out: ${message}`)
  }, [])
  const api = useMemo(() => (token ? createApi(base, token, endSession) : undefined), [base, token, endSession])
  /** Whom the server takes the token for: the operator area or the tenant views, never both. */
  /** The role found for a token: one found for another (the one before a sign-out) is no answer. */
  const [roleOf, setRoleOf] = useState<{ token: string; role: Role | { failed: unknown } }>()
  const role = roleOf && roleOf.token === token ? roleOf.role : undefined
  /** The role the sign-in form found for the token it kept, so it is not asked twice. */
  const signedInAs = useRef<{ token: string; role: Role } | null>(null)
  const [features, setFeatures] = useState<Features>(NO_FEATURES)
  const [view, setView] = useState<ViewName>(() => viewOfHash() ?? 'files')
  const [filesFilter, setFilesFilter] = useState<FilesFilter>({ network: 'public' })
  const main = useRef<HTMLElement>(null)

  useEffect(() => {
    // other fragments (the skip link's #main) leave the view as it is
    const onHash = () => {
      const named = viewOfHash()
      if (named) setView(named)
    }
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])

  const checkRole = useCallback(() => {
    if (!api) return
    const known = signedInAs.current
    if (known?.token === api.token) return setRoleOf(known)
    setRoleOf(undefined)
    // an answer about a token since replaced (signed out, signed in again) is dropped
    let current = true
    isOperator(api).then(
      (operator) => current && setRoleOf({ token: api.token, role: operator ? 'operator' : 'tenant' }),
      (failed) => current && setRoleOf({ token: api.token, role: { failed } }),
    )
    return () => {
      current = false
    }
  }, [api])
  useEffect(checkRole, [checkRole])

  useEffect(() => {
    if (api && role === 'tenant') detectFeatures(api).then(setFeatures, () => setFeatures(NO_FEATURES))
  }, [api, role])

  const go = useCallback((name: ViewName) => {
    location.hash = name
    setView(name)
    // move focus to the new view's heading, as a page load would for a screen reader
    requestAnimationFrame(() => main.current?.querySelector<HTMLElement>('h2')?.focus())
  }, [])

  const showFiles = useCallback(
    (filter: FilesFilter) => {
      setFilesFilter(filter)
      go('files')
    },
    [go],
  )

  if (!api) {
    return (
      <SignIn
        base={base}
        notice={notice}
        onSignedIn={(value, signedIn) => {
          signedInAs.current = { token: value, role: signedIn }
          saveToken(value)
          setNotice(null)
          setToken(value)
        }}
      />
    )
  }

  const signOut = () => {
    forgetToken()
    setToken(null)
  }
  if (role === 'operator') return <OperatorConsole api={api} onSignOut={signOut} onEnded={endSession} />
  if (role !== 'tenant') {
    return (
      <main className="signin">
        <h1>Pinfold</h1>
        {role === undefined ? (
          <p role="status">Checking the token…</p>
        ) : (
          <>
            <ErrorNote error={role.failed} />
            <button type="button" onClick={checkRole}>
              Try again
            </button>{' '}
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </>
        )}
      </main>
    )
  }
  const visible = VIEWS.filter((entry) => !entry.needs || entry.needs(features))

  return (
    <div className="app">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <h1>Pinfold</h1>
        <nav aria-label="Sections">
          <ul>
            {visible.map((entry) => (
              <li key={entry.name}>
                <a
                  href={`#${entry.name}`}
                  aria-current={view === entry.name ? 'page' : undefined}
                  onClick={(event) => {
                    event.preventDefault()
                    go(entry.name)
                  }}
                >
                  {entry.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" className="signout" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {view === 'files' && <FilesView api={api} filter={filesFilter} onFilter={setFilesFilter} />}
        {view === 'upload' && <UploadView api={api} onShow={(network: Network) => showFiles({ network })} />}
        {view === 'groups' && <GroupsView api={api} onShowFiles={showFiles} />}
        {view === 'pins' && <PinsView api={api} onShowFiles={() => showFiles({ network: 'public' })} />}
        {view === 'domains' && <DomainsView api={api} />}
        {view === 'deny-rules' && <GatewayDenyRulesView api={api} />}
        {view === 'search' && <SearchView api={api} />}
        {view === 'payments' && <PaymentsView api={api} />}
        {view === 'usage' && <UsageView api={api} features={features} />}
        {view === 'keys' && <KeysView api={api} />}
        {view === 'webhooks' && <WebhooksView api={api} />}
        {view === 'audit' && <AuditLogView api={api} />}
      </main>
    </div>
  )
}
