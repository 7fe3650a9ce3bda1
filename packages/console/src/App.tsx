import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { apiBaseOfPage, createApi } from './api/client'
import type { Network } from './api/types'
import { detectFeatures, type Features } from './features'
import { forgetToken, savedToken, saveToken } from './session'
import { DomainsView } from './views/Domains'
import { type FilesFilter, FilesView } from './views/Files'
import { GroupsView } from './views/Groups'
import { KeysView } from './views/Keys'
import { PaymentsView } from './views/Payments'
import { PinsView } from './views/Pins'
import { SearchView } from './views/Search'
import { SignIn } from './views/SignIn'
import { UploadView } from './views/Upload'
import { UsageView } from './views/Usage'

type ViewName = 'files' | 'upload' | 'groups' | 'pins' | 'domains' | 'search' | 'payments' | 'usage' | 'keys'

const VIEWS: { name: ViewName; label: string; needs?: (features: Features) => boolean }[] = [
  { name: 'files', label: 'Files' },
  { name: 'upload', label: 'Upload' },
  { name: 'groups', label: 'Groups' },
  { name: 'pins', label: 'Pin by CID' },
  { name: 'domains', label: 'Gateways' },
  { name: 'search', label: 'Search' },
  { name: 'payments', label: 'Payments' },
  { name: 'usage', label: 'Usage', needs: (f) => f.usage || f.analytics },
  { name: 'keys', label: 'API keys', needs: (f) => f.keys },
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
  const api = useMemo(
    () =>
      token
        ? createApi(base, token, (message) => {
            forgetToken()
            setToken(null)
            setNotice(`Signed out: ${message}`)
          })
        : undefined,
    [base, token],
  )
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

  useEffect(() => {
    if (api) detectFeatures(api).then(setFeatures, () => setFeatures(NO_FEATURES))
  }, [api])

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
        onSignedIn={(value) => {
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
        {view === 'search' && <SearchView api={api} />}
        {view === 'payments' && <PaymentsView api={api} />}
        {view === 'usage' && <UsageView api={api} features={features} />}
        {view === 'keys' && <KeysView api={api} />}
      </main>
    </div>
  )
}
