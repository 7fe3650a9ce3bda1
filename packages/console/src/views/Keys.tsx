import { type FormEvent, useCallback, useState } from 'react'
import type { Api } from '../api/client'
import type { ApiKey } from '../api/types'
import { CopyButton, ErrorNote } from '../components/common'
import { useAction } from '../components/use-action'
import { useLoad } from '../components/use-load'
import { formatDate } from '../format'

interface CreatedKey {
  JWT: string
  pinata_api_key: string
  pinata_api_secret: string
}

/** API keys as the SDK's `keys.*` calls manage them; a new key's JWT is shown once. */
export function KeysView({ api }: { api: Api }) {
  const [keys, setKeys] = useState<ApiKey[]>([])
  const { error, setError, run } = useAction()
  const [name, setName] = useState('')
  const [admin, setAdmin] = useState(false)
  const [maxUses, setMaxUses] = useState('')
  const [created, setCreated] = useState<CreatedKey | null>(null)

  const load = useLoad(
    useCallback(async () => setKeys((await api.get<{ keys: ApiKey[] }>('v3/pinata/keys')).keys ?? []), [api]),
    setError,
  )

  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const key = await api.send<CreatedKey>('POST', 'v3/pinata/keys', {
        keyName: name.trim(),
        permissions: admin ? { admin: true } : { resources: ['org:files:read', 'org:files:write'] },
        ...(maxUses ? { maxUses: Number(maxUses) } : {}),
      })
      setCreated(key)
      setName('')
      await load()
    })
  }

  const revoke = (key: string) =>
    run(async () => {
      await api.send('PUT', `v3/pinata/keys/${encodeURIComponent(key)}`)
      await load()
    })

  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title" tabIndex={-1}>
        API keys
      </h2>
      <form className="filters" onSubmit={create} aria-labelledby="new-key-title">
        <h3 id="new-key-title">New key</h3>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label className="check">
          <input type="checkbox" checked={admin} onChange={(e) => setAdmin(e.target.checked)} />
          Admin (every scope; otherwise files read and write)
        </label>
        <label>
          Maximum uses
          <input inputMode="numeric" value={maxUses} onChange={(e) => setMaxUses(e.target.value.replace(/\D/g, ''))} />
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Create key
          </button>
        </div>
      </form>
      {created && (
        <div className="block" role="status">
          <p>
            <strong>Copy the JWT now:</strong> it is not shown again.
          </p>
          <label>
            JWT
            <input readOnly className="mono" value={created.JWT} onFocus={(e) => e.target.select()} />
          </label>
          <CopyButton text={created.JWT} label="Copy JWT" />
        </div>
      )}
      <ErrorNote error={error} />
      <ul className="rows">
        {keys.map((key) => (
          <li className="row" key={key.id}>
            <div>
              <strong>{key.name}</strong> {key.revoked && <span className="badge">revoked</span>}
              <div className="hint">
                <span className="mono">{key.key}</span> · created {formatDate(key.createdAt)}
                {key.max_uses ? ` · ${key.uses ?? 0} of ${key.max_uses} uses` : ''}
              </div>
            </div>
            {!key.revoked && (
              <button
                type="button"
                className="danger"
                onClick={() => revoke(key.key)}
                aria-label={`Revoke ${key.name}`}
              >
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
