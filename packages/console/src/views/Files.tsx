import { type FormEvent, useCallback, useEffect, useState } from 'react'
import type { Api } from '../api/client'
import type { FileItem, FileList, Group, GroupList, Network } from '../api/types'
import { BulkActions } from '../components/BulkActions'
import { CopyCid } from '../components/CopyCid'
import { ErrorNote, NetworkPicker } from '../components/common'
import { useFileDrop } from '../components/DropZone'
import { Pager, usePages } from '../components/Pager'
import { UploadList } from '../components/UploadList'
import { usePageLoad } from '../components/use-page-load'
import { formatBytes, formatDate, parseKeyvalues } from '../format'
import { useUploadQueue } from '../uploads/use-upload-queue'
import { FileDetails } from './FileDetails'

export interface FilesFilter {
  network: Network
  name?: string
  cid?: string
  /** A group id, or `null` for files in no group. */
  group?: string
  mimeType?: string
  keyvalues?: string
  order?: 'ASC' | 'DESC'
}

const PAGE_SIZE = 20

export function FilesView({
  api,
  filter,
  onFilter,
}: {
  api: Api
  filter: FilesFilter
  onFilter(f: FilesFilter): void
}) {
  const [draft, setDraft] = useState(filter)
  const [groups, setGroups] = useState<Group[]>([])
  const [selected, setSelected] = useState<FileItem | null>(null)
  // ids ticked for a bulk action: on this page only, cleared when the page or the filter changes
  const [checked, setChecked] = useState<Set<string>>(new Set())
  const pages = usePages()
  const { network } = filter

  useEffect(() => setDraft(filter), [filter])

  useEffect(() => {
    api.get<{ data: GroupList }>(`v3/groups/${network}`, { limit: 100 }).then(
      ({ data }) => setGroups(data.groups),
      () => setGroups([]),
    )
  }, [api, network])

  const fetchPage = useCallback(async () => {
    const query: Record<string, string | number | undefined> = {
      limit: PAGE_SIZE,
      pageToken: pages.token,
      name: filter.name,
      cid: filter.cid,
      group: filter.group,
      mimeType: filter.mimeType,
      order: filter.order,
    }
    for (const [key, value] of Object.entries(parseKeyvalues(filter.keyvalues ?? ''))) {
      query[`keyvalues[${key}]`] = value
    }
    const { data } = await api.get<{ data: FileList }>(`v3/files/${network}`, query)
    setChecked(new Set())
    return data
  }, [api, filter, network, pages.token])
  const { data: list, error, setError, loading, reload: load } = usePageLoad(fetchPage)

  // files and folders dropped on the list go up into the network (and the group) it shows
  const queue = useUploadQueue(api, () => void load())
  const dropGroup = filter.group && filter.group !== 'null' ? filter.group : undefined
  const drop = useFileDrop((dropped) => {
    setError(null)
    queue.addDropped(dropped, { network, groupId: dropGroup })
  }, setError)

  const apply = (next: FilesFilter) => {
    pages.reset()
    setSelected(null)
    onFilter(next)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    try {
      parseKeyvalues(draft.keyvalues ?? '')
    } catch (failure) {
      return setError(failure)
    }
    apply(draft)
  }

  const toggle = (id: string, on: boolean) =>
    setChecked((ids) => {
      const next = new Set(ids)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })
  const shown = list?.files ?? []
  const allChecked = shown.length > 0 && shown.every((file) => checked.has(file.id))

  const groupName = (id: string | null) => (id ? (groups.find((g) => g.id === id)?.name ?? id) : '—')

  return (
    <section aria-labelledby="files-title">
      <h2 id="files-title" tabIndex={-1}>
        Files
      </h2>
      <NetworkPicker value={network} onChange={(next) => apply({ network: next })} />
      <form className="filters" onSubmit={submit} aria-label="Filter files">
        <label>
          Name starts with
          <input value={draft.name ?? ''} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <label>
          CID
          <input
            value={draft.cid ?? ''}
            spellCheck={false}
            onChange={(e) => setDraft({ ...draft, cid: e.target.value })}
          />
        </label>
        <label>
          Group
          <select
            value={draft.group ?? ''}
            onChange={(e) => setDraft({ ...draft, group: e.target.value || undefined })}
          >
            <option value="">Any group</option>
            <option value="null">No group</option>
            {groups.map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          MIME type
          <input
            value={draft.mimeType ?? ''}
            placeholder="image/png"
            onChange={(e) => setDraft({ ...draft, mimeType: e.target.value })}
          />
        </label>
        <label>
          Keyvalues
          <input
            value={draft.keyvalues ?? ''}
            placeholder="env=prod, team=web"
            onChange={(e) => setDraft({ ...draft, keyvalues: e.target.value })}
          />
        </label>
        <label>
          Order
          <select
            value={draft.order ?? 'DESC'}
            onChange={(e) => setDraft({ ...draft, order: e.target.value as 'ASC' | 'DESC' })}
          >
            <option value="DESC">Newest first</option>
            <option value="ASC">Oldest first</option>
          </select>
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Search
          </button>
          <button type="button" onClick={() => apply({ network })}>
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      <div className="split">
        <div
          className={drop.over ? 'results drop-target over' : 'results drop-target'}
          aria-busy={loading}
          {...drop.handlers}
        >
          <p className="hint drop-hint">
            Drop files or folders on the list to upload them to the {network} network
            {dropGroup ? `, into the group ${groupName(dropGroup)}` : ''}.
          </p>
          <UploadList queue={queue} />
          {list && (
            <BulkActions
              api={api}
              network={network}
              selected={shown.filter((file) => checked.has(file.id))}
              groups={groups}
              onChanged={() => {
                setSelected(null)
                void load()
              }}
            />
          )}
          {list && list.files.length === 0 && <p>No files match.</p>}
          {list && list.files.length > 0 && (
            <table className="cards">
              <caption className="visually-hidden">Files on the {network} network</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <input
                      type="checkbox"
                      aria-label="Select all files on this page"
                      checked={allChecked}
                      onChange={(e) => setChecked(new Set(e.target.checked ? shown.map((file) => file.id) : []))}
                    />
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col">CID</th>
                  <th scope="col">Size</th>
                  <th scope="col">Type</th>
                  <th scope="col">Group</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {list.files.map((file) => (
                  <tr key={file.id} aria-selected={selected?.id === file.id}>
                    <td data-label="Select">
                      <input
                        type="checkbox"
                        aria-label={`Select ${file.name || file.cid}`}
                        checked={checked.has(file.id)}
                        onChange={(e) => toggle(file.id, e.target.checked)}
                      />
                    </td>
                    <td data-label="Name">
                      <button
                        type="button"
                        id={`file-name-${file.id}`}
                        className="link"
                        onClick={() => setSelected(file)}
                      >
                        {file.name || '(no name)'}
                      </button>
                    </td>
                    <td data-label="CID">
                      <div className="cid-cell">
                        <span className="mono truncate" title={file.cid}>
                          {file.cid}
                        </span>
                        <CopyCid cid={file.cid} describedBy={`file-name-${file.id}`} />
                      </div>
                    </td>
                    <td data-label="Size">{formatBytes(file.size)}</td>
                    <td data-label="Type">{file.mime_type}</td>
                    <td data-label="Group">{groupName(file.group_id)}</td>
                    <td data-label="Created">{formatDate(file.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {list && (
            <Pager page={pages.page} nextToken={list.next_page_token} onPrevious={pages.previous} onNext={pages.next} />
          )}
        </div>
        {selected && (
          <FileDetails
            key={selected.id}
            api={api}
            network={network}
            file={selected}
            groups={groups}
            onClose={() => setSelected(null)}
            onChanged={(file) => {
              setSelected(file)
              void load()
            }}
            onDeleted={() => {
              setSelected(null)
              void load()
            }}
          />
        )}
      </div>
    </section>
  )
}
