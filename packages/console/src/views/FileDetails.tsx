import { type FormEvent, useEffect, useRef, useState } from 'react'
import { type Api, ApiError } from '../api/client'
import { signedLink } from '../api/file-actions'
import type { FileItem, Group, Network, Swap } from '../api/types'
import { ConfirmButton, CopyButton, ErrorNote, Status } from '../components/common'
import { GroupMove } from '../components/GroupMove'
import { Preview } from '../components/Preview'
import { useAction } from '../components/use-action'
import { formatBytes, formatDate, formatUnixSeconds } from '../format'

interface Props {
  api: Api
  network: Network
  file: FileItem
  groups: Group[]
  onClose(): void
  onChanged(file: FileItem): void
  onDeleted(): void
}

export function FileDetails({ api, network, file, groups, onClose, onChanged, onDeleted }: Props) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  const path = `v3/files/${network}/${file.id}`
  const group = groups.find((g) => g.id === file.group_id)

  return (
    <aside className="details" aria-labelledby="details-title">
      <div className="details-head">
        <h3 id="details-title" ref={heading} tabIndex={-1}>
          {file.name || '(no name)'}
        </h3>
        <button type="button" onClick={onClose} aria-label="Close details">
          Close
        </button>
      </div>
      <dl className="facts">
        <dt>CID</dt>
        <dd className="mono break">
          {file.cid} <CopyButton text={file.cid} label="Copy CID" />
        </dd>
        <dt>Id</dt>
        <dd className="mono break">{file.id}</dd>
        <dt>Size</dt>
        <dd>
          {formatBytes(file.size)} ({file.size} bytes){file.number_of_files > 1 && `, ${file.number_of_files} files`}
        </dd>
        <dt>Type</dt>
        <dd>{file.mime_type}</dd>
        <dt>Group</dt>
        <dd>{group?.name ?? file.group_id ?? '—'}</dd>
        <dt>Created</dt>
        <dd>{formatDate(file.created_at)}</dd>
        {file.expires_at && (
          <>
            <dt>Expires</dt>
            <dd>{formatUnixSeconds(file.expires_at)}</dd>
          </>
        )}
      </dl>
      <Preview api={api} network={network} file={file} />
      <Rename api={api} path={path} file={file} onChanged={onChanged} />
      <GroupMove api={api} network={network} file={file} groups={groups} onMoved={onChanged} />
      <Keyvalues api={api} path={path} file={file} onChanged={onChanged} />
      <DownloadLink api={api} network={network} file={file} />
      <Swaps api={api} network={network} cid={file.cid} />
      {network === 'private' && <Vectors api={api} file={file} />}
      <Delete api={api} path={path} name={file.name || file.cid} onDeleted={onDeleted} />
    </aside>
  )
}

/** A form that changes the file's record: its `PUT` at `path`, the record answered handed to `onChanged`. */
interface EditProps {
  api: Api
  path: string
  file: FileItem
  onChanged(f: FileItem): void
}

/** `save(body, message)`: sends the change, says `message` once it is saved, and hands on the new record. */
function useFileUpdate({ api, path, onChanged }: EditProps) {
  const { error, done, setDone, run } = useAction()
  const save = (body: Record<string, unknown>, message: string) =>
    run(async () => {
      const { data } = await api.send<{ data: FileItem }>('PUT', path, body)
      setDone(message)
      onChanged(data)
    })
  return { error, done, save }
}

function Rename(props: EditProps) {
  const [name, setName] = useState(props.file.name ?? '')
  const { error, done, save } = useFileUpdate(props)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void save({ name }, 'Renamed.')
  }
  return (
    <form onSubmit={submit} className="block" aria-labelledby="rename-title">
      <h4 id="rename-title">Rename</h4>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <button type="submit">Save name</button>
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
    </form>
  )
}

function Keyvalues(props: EditProps) {
  const { file } = props
  const [rows, setRows] = useState(() => Object.entries(file.keyvalues ?? {}).map(([key, value]) => ({ key, value })))
  const { error, done, save } = useFileUpdate(props)
  const update = (index: number, change: Partial<{ key: string; value: string }>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    // a key that is no longer listed is removed by sending it as null
    const patch: Record<string, string | null> = {}
    for (const key of Object.keys(file.keyvalues ?? {})) patch[key] = null
    for (const { key, value } of rows) if (key.trim()) patch[key.trim()] = value
    void save({ keyvalues: patch }, 'Keyvalues saved.')
  }
  return (
    <form onSubmit={submit} className="block" aria-labelledby="kv-title">
      <h4 id="kv-title">Keyvalues</h4>
      {rows.length === 0 && <p className="hint">None.</p>}
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the key text itself changes
        <div className="kv-row" key={index}>
          <label>
            Key
            <input value={row.key} onChange={(e) => update(index, { key: e.target.value })} />
          </label>
          <label>
            Value
            <input value={row.value} onChange={(e) => update(index, { value: e.target.value })} />
          </label>
          <button
            type="button"
            aria-label={`Remove keyvalue ${row.key || index + 1}`}
            onClick={() => setRows(rows.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <div className="actions">
        <button type="button" onClick={() => setRows([...rows, { key: '', value: '' }])}>
          Add keyvalue
        </button>
        <button type="submit">Save keyvalues</button>
      </div>
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
    </form>
  )
}

const EXPIRIES = [
  { seconds: 60, label: '1 minute' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
]

/** A signed link to the file's bytes that needs no token, valid for the chosen time. */
function DownloadLink({ api, network, file }: { api: Api; network: Network; file: FileItem }) {
  const [expires, setExpires] = useState(3600)
  const [link, setLink] = useState<string | null>(null)
  const { error, run } = useAction()
  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => setLink(await signedLink(api, file.cid, expires)))
  }
  const gatewayUrl = `${api.base}ipfs/${file.cid}`
  return (
    <form onSubmit={create} className="block" aria-labelledby="link-title">
      <h4 id="link-title">Download link</h4>
      {network === 'public' && (
        <p className="link-line">
          <a href={gatewayUrl} target="_blank" rel="noopener noreferrer">
            Public gateway URL
          </a>{' '}
          <CopyButton text={gatewayUrl} label="Copy gateway URL" />
        </p>
      )}
      <label>
        Link valid for
        <select value={expires} onChange={(e) => setExpires(Number(e.target.value))}>
          {EXPIRIES.map(({ seconds, label }) => (
            <option key={seconds} value={seconds}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Create download link</button>
      <ErrorNote error={error} />
      {link && (
        <div className="link-line">
          <label>
            Signed link
            <input readOnly value={link} className="mono" onFocus={(e) => e.target.select()} />
          </label>
          <CopyButton text={link} label="Copy link" />
          <a href={link} target="_blank" rel="noopener noreferrer">
            Open link
          </a>
        </div>
      )}
    </form>
  )
}

/**
 * Hot swaps: this CID served as another one on the tenant's gateway domains. The API gives the
 * history only (current, replaced and removed mappings alike), so it is shown as history. It is
 * asked for when wanted, not on opening a file: the API answers a CID never swapped with a 404 (as
 * Pinata does), which the browser would log as a failed request for nearly every file opened.
 */
function Swaps({ api, network, cid }: { api: Api; network: Network; cid: string }) {
  const path = `v3/files/${network}/swap/${cid}`
  // null: not asked yet
  const [history, setHistory] = useState<Swap[] | null>(null)
  const [target, setTarget] = useState('')
  const { error, setError, done, setDone, run } = useAction()
  const refresh = async () => {
    try {
      setHistory((await api.get<{ data: Swap[] }>(path)).data)
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) setHistory([])
      else setError(failure)
    }
  }
  const act = (action: () => Promise<unknown>, message: string) =>
    run(async () => {
      await action()
      setDone(message)
      await refresh()
    })
  return (
    <form
      className="block"
      aria-labelledby="swap-title"
      onSubmit={(event) => {
        event.preventDefault()
        void act(() => api.send('PUT', path, { swap_cid: target.trim() }), 'Swap added.')
      }}
    >
      <h4 id="swap-title">Swap</h4>
      {history === null && (
        <button type="button" onClick={() => void refresh()}>
          Show swap history
        </button>
      )}
      {history && history.length > 0 && (
        <ul className="plain" aria-label="Swap history, newest first">
          {history.map((swap) => (
            <li key={swap.created_at + swap.mapped_cid}>
              <span className="mono break">{swap.mapped_cid}</span> <small>{formatDate(swap.created_at)}</small>
            </li>
          ))}
        </ul>
      )}
      {history && history.length === 0 && <p className="hint">Never swapped.</p>}
      <label>
        Serve this CID as
        <input value={target} spellCheck={false} onChange={(e) => setTarget(e.target.value)} required />
      </label>
      <div className="actions">
        <button type="submit">Add swap</button>
        <button type="button" onClick={() => void act(() => api.send('DELETE', path), 'Swap removed.')}>
          Remove swap
        </button>
      </div>
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
    </form>
  )
}

function Vectors({ api, file }: { api: Api; file: FileItem }) {
  const { error, done, setDone, run } = useAction()
  const vectors = (method: 'POST' | 'DELETE') =>
    run(async () => {
      await api.send(method, `v3/vectorize/files/${file.id}`)
      setDone(method === 'POST' ? 'Vectorized.' : 'Vectors deleted.')
    })
  return (
    <fieldset className="block">
      <legend>Semantic vectors</legend>
      <p className="hint">Vectors of a file in a group answer that group's semantic search.</p>
      <div className="actions">
        <button type="button" onClick={() => vectors('POST')}>
          Vectorize
        </button>
        <button type="button" onClick={() => vectors('DELETE')}>
          Delete vectors
        </button>
      </div>
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
    </fieldset>
  )
}

function Delete({ api, path, name, onDeleted }: { api: Api; path: string; name: string; onDeleted(): void }) {
  const { error, run } = useAction()
  const remove = () =>
    run(async () => {
      await api.send('DELETE', path)
      onDeleted()
    })
  return (
    <fieldset className="block danger">
      <legend>Delete</legend>
      <ConfirmButton label="Delete" what={name} onConfirm={remove} />
      <ErrorNote error={error} />
    </fieldset>
  )
}
