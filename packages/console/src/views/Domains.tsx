import { type FormEvent, useCallback, useState } from 'react'
import type { Api } from '../api/client'
import type { Domain } from '../api/types'
import { ConfirmButton, CopyButton, ErrorNote, Status } from '../components/common'
import { useAction } from '../components/use-action'
import { useLoad } from '../components/use-load'
import { formatDate } from '../format'
import '../components/fileui.css'

/**
 * Gateway domains: the shared public gateway on the API's host, dedicated gateway names under the
 * server's gateway domain (active at once), and custom domains proved by a DNS TXT record. A
 * tenant's own domains serve its content, public and private, with its swaps.
 */
export function DomainsView({ api }: { api: Api }) {
  const [domains, setDomains] = useState<Domain[] | null>(null)
  const [kind, setKind] = useState<'domain' | 'name'>('domain')
  const [value, setValue] = useState('')
  const { error, setError, done, setDone, run } = useAction()

  const load = useLoad(
    useCallback(async () => setDomains((await api.get<{ data: Domain[] }>('v3/gateways/domains')).data), [api]),
    setError,
  )

  const act = (action: () => Promise<string>) =>
    run(async () => {
      setDone(await action())
      await load()
    })

  const add = (event: FormEvent) => {
    event.preventDefault()
    void act(async () => {
      const { data } = await api.send<{ data: Domain }>('POST', 'v3/gateways/domains', { [kind]: value.trim() })
      setValue('')
      return data.status === 'active'
        ? `${data.domain} is active.`
        : `${data.domain} added: publish its TXT record, then verify it.`
    })
  }

  const shared = `${api.base}ipfs/`
  return (
    <section aria-labelledby="domains-title">
      <h2 id="domains-title" tabIndex={-1}>
        Gateways
      </h2>
      <p>
        Shared public gateway: <span className="mono break">{shared}&lt;cid&gt;</span>{' '}
        <CopyButton text={shared} label="Copy gateway URL" />
      </p>
      <p className="hint">
        It serves public content, each CID as its own bytes. Your own domains below also serve your swaps and images
        resized on request.
      </p>
      <form className="filters" onSubmit={add} aria-labelledby="domain-new-title">
        <h3 id="domain-new-title">Add a domain</h3>
        <fieldset className="segmented">
          <legend>Kind of domain</legend>
          <label>
            <input type="radio" name="domain-kind" checked={kind === 'domain'} onChange={() => setKind('domain')} />
            Custom domain
          </label>
          <label>
            <input type="radio" name="domain-kind" checked={kind === 'name'} onChange={() => setKind('name')} />
            Dedicated gateway name
          </label>
        </fieldset>
        <label className="grow">
          {kind === 'domain' ? 'Domain (e.g. files.example.com)' : 'Gateway name (one label, e.g. acme)'}
          <input value={value} spellCheck={false} onChange={(e) => setValue(e.target.value)} required />
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Add domain
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
      <h3 id="domain-list-title">Your domains</h3>
      {domains && domains.length === 0 && <p>No domains yet.</p>}
      {domains && domains.length > 0 && (
        <ul className="plain" aria-labelledby="domain-list-title">
          {domains.map((domain) => (
            <li key={domain.id} className="row column">
              <div className="actions">
                <strong className="break">{domain.domain}</strong>
                <span className={domain.status === 'active' ? 'badge ok' : 'badge'}>
                  {domain.status === 'active' ? 'active' : 'waiting for its TXT record'}
                </span>
                <small>added {formatDate(domain.created_at)}</small>
              </div>
              {domain.verification && domain.status !== 'active' && (
                <dl className="facts">
                  <dt>TXT name</dt>
                  <dd className="mono break">{domain.verification.name}</dd>
                  <dt>TXT value</dt>
                  <dd className="mono break">
                    {domain.verification.value}{' '}
                    <CopyButton text={domain.verification.value} label={`Copy TXT value of ${domain.domain}`} />
                  </dd>
                  {domain.expires_at && (
                    <>
                      <dt>Claim lapses</dt>
                      <dd>{formatDate(domain.expires_at)}</dd>
                    </>
                  )}
                </dl>
              )}
              <div className="actions">
                {domain.status !== 'active' && (
                  <button
                    type="button"
                    onClick={() =>
                      void act(async () => {
                        const { data } = await api.send<{ data: Domain }>(
                          'POST',
                          `v3/gateways/domains/${domain.id}/verify`,
                        )
                        return data.status === 'active'
                          ? `${data.domain} verified.`
                          : `${data.domain}: the TXT record is not there yet.`
                      })
                    }
                  >
                    Verify<span className="visually-hidden"> {domain.domain}</span>
                  </button>
                )}
                <ConfirmButton
                  label="Remove"
                  what={domain.domain}
                  onConfirm={() =>
                    void act(async () => {
                      await api.send('DELETE', `v3/gateways/domains/${domain.id}`)
                      return `${domain.domain} removed.`
                    })
                  }
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
