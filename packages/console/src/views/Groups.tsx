import { type FormEvent, useCallback, useState } from 'react'
import type { Api } from '../api/client'
import type { Group, GroupList, Network } from '../api/types'
import { ConfirmButton, ErrorNote, NetworkPicker } from '../components/common'
import { Pager, usePages } from '../components/Pager'
import { useAction } from '../components/use-action'
import { useLoad } from '../components/use-load'
import { formatDate } from '../format'
import type { FilesFilter } from './Files'

export function GroupsView({ api, onShowFiles }: { api: Api; onShowFiles(filter: FilesFilter): void }) {
  const [network, setNetwork] = useState<Network>('public')
  const [list, setList] = useState<GroupList | null>(null)
  const [nameFilter, setNameFilter] = useState('')
  const { error, setError, run } = useAction()
  const [newName, setNewName] = useState('')
  const [newPublic, setNewPublic] = useState(false)
  const pages = usePages()

  const load = useLoad(
    useCallback(async () => {
      setError(null)
      const { data } = await api.get<{ data: GroupList }>(`v3/groups/${network}`, {
        limit: 20,
        pageToken: pages.token,
        name: nameFilter,
      })
      setList(data)
    }, [api, network, pages.token, nameFilter, setError]),
    setError,
  )

  const act = (action: () => Promise<unknown>) =>
    run(async () => {
      await action()
      await load()
    })

  const create = (event: FormEvent) => {
    event.preventDefault()
    void act(async () => {
      await api.send('POST', `v3/groups/${network}`, { name: newName.trim(), is_public: newPublic })
      setNewName('')
    })
  }

  return (
    <section aria-labelledby="groups-title">
      <h2 id="groups-title" tabIndex={-1}>
        Groups
      </h2>
      <NetworkPicker
        value={network}
        onChange={(next) => {
          pages.reset()
          setNetwork(next)
        }}
      />
      <form className="filters" onSubmit={create} aria-labelledby="new-group-title">
        <h3 id="new-group-title">New group</h3>
        <label>
          Name
          <input value={newName} onChange={(e) => setNewName(e.target.value)} required />
        </label>
        <label className="check">
          <input type="checkbox" checked={newPublic} onChange={(e) => setNewPublic(e.target.checked)} />
          Public
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Create group
          </button>
        </div>
      </form>
      <label className="inline">
        Filter by name
        <input
          type="search"
          value={nameFilter}
          onChange={(e) => {
            pages.reset()
            setNameFilter(e.target.value)
          }}
        />
      </label>
      <ErrorNote error={error} />
      {list && list.groups.length === 0 && <p>No groups.</p>}
      <ul className="rows">
        {list?.groups.map((group) => (
          <GroupRow
            key={group.id}
            group={group}
            onRename={(name) => act(() => api.send('PUT', `v3/groups/${network}/${group.id}`, { name }))}
            onTogglePublic={() =>
              act(() => api.send('PUT', `v3/groups/${network}/${group.id}`, { is_public: !group.is_public }))
            }
            onDelete={() => act(() => api.send('DELETE', `v3/groups/${network}/${group.id}`))}
            onShowFiles={() => onShowFiles({ network, group: group.id })}
          />
        ))}
      </ul>
      {list && (
        <Pager page={pages.page} nextToken={list.next_page_token} onPrevious={pages.previous} onNext={pages.next} />
      )}
    </section>
  )
}

function GroupRow({
  group,
  onRename,
  onTogglePublic,
  onDelete,
  onShowFiles,
}: {
  group: Group
  onRename(name: string): void
  onTogglePublic(): void
  onDelete(): void
  onShowFiles(): void
}) {
  const [editing, setEditing] = useState(false)
  const [name, setName] = useState(group.name)
  return (
    <li className="row">
      {editing ? (
        <form
          className="inline"
          onSubmit={(event) => {
            event.preventDefault()
            setEditing(false)
            onRename(name)
          }}
        >
          <label>
            Name of {group.name}
            <input value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <button type="submit">Save</button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div>
          <strong>{group.name}</strong> <span className="badge">{group.is_public ? 'public' : 'private'}</span>
          <div className="hint">
            <span className="mono">{group.id}</span> · created {formatDate(group.created_at)}
          </div>
        </div>
      )}
      <div className="actions">
        <button type="button" onClick={onShowFiles}>
          Files
        </button>
        <button type="button" onClick={() => setEditing(true)} aria-label={`Rename ${group.name}`}>
          Rename
        </button>
        <button
          type="button"
          onClick={onTogglePublic}
          aria-label={`Make ${group.is_public ? 'private' : 'public'}: ${group.name}`}
        >
          Make {group.is_public ? 'private' : 'public'}
        </button>
        <ConfirmButton label="Delete" what={group.name} onConfirm={onDelete} />
      </div>
    </li>
  )
}
