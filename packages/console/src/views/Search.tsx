import { type FormEvent, useEffect, useState } from 'react'
import type { Api } from '../api/client'
import type { FileItem, Group, GroupList, VectorMatch } from '../api/types'
import { ErrorNote } from '../components/common'
import { useAction } from '../components/use-action'

/** Semantic search over the vectors of a private group's files. */
export function SearchView({ api }: { api: Api }) {
  const [groups, setGroups] = useState<Group[]>([])
  const [groupId, setGroupId] = useState('')
  const [text, setText] = useState('')
  const [matches, setMatches] = useState<(VectorMatch & { name?: string })[] | null>(null)
  const { error, setError, busy, run } = useAction()

  useEffect(() => {
    api.get<{ data: GroupList }>('v3/groups/private', { limit: 100 }).then(({ data }) => {
      setGroups(data.groups)
      setGroupId((current) => current || data.groups[0]?.id || '')
    }, setError)
  }, [api, setError])

  const search = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const { data } = await api.send<{ data: { matches: VectorMatch[] } }>(
        'POST',
        `v3/vectorize/groups/${groupId}/query`,
        { text },
      )
      // the answer names files by id: their names make it readable (at most 20 matches)
      const named = await Promise.all(
        data.matches.map(async (match) => {
          try {
            const { data: file } = await api.get<{ data: FileItem }>(`v3/files/private/${match.file_id}`)
            return { ...match, name: file.name ?? undefined }
          } catch {
            return match
          }
        }),
      )
      setMatches(named)
    })
  }

  return (
    <section aria-labelledby="search-title">
      <h2 id="search-title" tabIndex={-1}>
        Semantic search
      </h2>
      <p className="hint">Searches the vectorized files of a private group (vectorize a file from its details).</p>
      <form className="filters" onSubmit={search} aria-label="Semantic search">
        <label>
          Group
          <select value={groupId} onChange={(e) => setGroupId(e.target.value)} required>
            {groups.length === 0 && <option value="">No private groups</option>}
            {groups.map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Query
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} required />
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy || !groupId}>
            Search
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {matches && (
        <ol className="rows" aria-label="Matches">
          {matches.length === 0 && <li>No matches.</li>}
          {matches.map((match) => (
            <li className="row" key={match.file_id}>
              <strong>{match.name ?? '(unknown file)'}</strong>
              <span className="mono break">{match.cid}</span>
              <span className="badge">score {match.score.toFixed(3)}</span>
              <span className="hint mono">{match.file_id}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
