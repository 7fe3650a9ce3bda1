import { type ChangeEvent, useCallback, useEffect, useRef, useState } from 'react'
import { type Api, messageOf } from '../api/client'
import type { FileItem, Group, GroupList, Network } from '../api/types'
import { ErrorNote, NetworkPicker } from '../components/common'
import { DropZone } from '../components/DropZone'
import { formatBytes, formatDuration, parseKeyvalues } from '../format'
import type { Dropped } from '../uploads/drop'
import { createRateMeter, secondsLeft } from '../uploads/rate'
import {
  CancelledError,
  RESUMABLE_THRESHOLD,
  type RunningUpload,
  type UploadOptions,
  uploadFile,
  uploadFolder,
} from '../uploads/upload'

type State = 'waiting' | 'uploading' | 'paused' | 'done' | 'failed' | 'cancelled'

interface Item {
  id: number
  label: string
  detail: string
  total: number
  sent: number
  bytesPerSecond: number
  state: State
  resumable: boolean
  error?: string
  result?: FileItem
}

/** Uploads running at once; the rest wait their turn. */
const PARALLEL = 3

let nextId = 1

export function UploadView({ api, onShow }: { api: Api; onShow(network: Network): void }) {
  // private unless the user chooses otherwise, as the API and the CLI: public cannot be taken back
  const [network, setNetwork] = useState<Network>('private')
  const [groups, setGroups] = useState<Group[]>([])
  const [groupId, setGroupId] = useState('')
  const [name, setName] = useState('')
  const [keyvalues, setKeyvalues] = useState('')
  const [error, setError] = useState<unknown>(null)
  const [items, setItems] = useState<Item[]>([])
  const running = useRef(new Map<number, RunningUpload>())
  const waiting = useRef<{ id: number; start: () => RunningUpload }[]>([])
  const folderInput = useRef<HTMLInputElement>(null)

  useEffect(() => {
    // not in React's attribute types: the non-standard (but universal) folder picker
    folderInput.current?.setAttribute('webkitdirectory', '')
  }, [])

  useEffect(() => {
    setGroupId('')
    api.get<{ data: GroupList }>(`v3/groups/${network}`, { limit: 100 }).then(
      ({ data }) => setGroups(data.groups),
      () => setGroups([]),
    )
  }, [api, network])

  const patch = useCallback((id: number, change: Partial<Item>) => {
    setItems((all) => all.map((item) => (item.id === id ? { ...item, ...change } : item)))
  }, [])

  const pump = useCallback(() => {
    while (running.current.size < PARALLEL && waiting.current.length > 0) {
      const { id, start } = waiting.current.shift()!
      const upload = start()
      running.current.set(id, upload)
      patch(id, { state: 'uploading' })
      upload.done
        .then(
          (result) => patch(id, { state: 'done', result, bytesPerSecond: 0 }),
          (failure) =>
            patch(
              id,
              failure instanceof CancelledError
                ? { state: 'cancelled' }
                : { state: 'failed', error: messageOf(failure) },
            ),
        )
        .finally(() => {
          running.current.delete(id)
          pump()
        })
    }
  }, [patch])

  const enqueue = (
    label: string,
    detail: string,
    total: number,
    resumable: boolean,
    begin: (o: UploadOptions, h: { onProgress(sent: number, total: number): void }) => RunningUpload,
  ) => {
    let options: UploadOptions
    try {
      options = {
        network,
        groupId: groupId || undefined,
        name: name.trim() || undefined,
        keyvalues: parseKeyvalues(keyvalues),
      }
    } catch (failure) {
      setError(failure)
      return
    }
    const id = nextId++
    const meter = createRateMeter()
    setItems((all) => [...all, { id, label, detail, total, sent: 0, bytesPerSecond: 0, state: 'waiting', resumable }])
    waiting.current.push({
      id,
      start: () =>
        begin(options, {
          onProgress: (sent, size) => patch(id, { sent, total: size, ...meter.sample(sent) }),
        }),
    })
  }

  const addFiles = (files: File[]) => {
    for (const file of files) {
      const resumable = file.size > RESUMABLE_THRESHOLD
      enqueue(file.name, resumable ? 'resumable (tus)' : 'file', file.size, resumable, (options, handlers) =>
        // a custom name applies to a single file only: several files keep their own
        uploadFile(api, file, files.length === 1 ? options : { ...options, name: undefined }, handlers),
      )
    }
  }

  const addFolder = (folder: string, parts: { file: File; path: string }[]) => {
    const total = parts.reduce((sum, { file }) => sum + file.size, 0)
    enqueue(folder, `folder of ${parts.length} files`, total, false, (options, handlers) =>
      uploadFolder(api, folder, parts, options, handlers),
    )
  }

  const chooseFiles = (event: ChangeEvent<HTMLInputElement>) => {
    setError(null)
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    addFiles(files)
    pump()
  }

  const chooseFolder = (event: ChangeEvent<HTMLInputElement>) => {
    setError(null)
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    if (files.length === 0) return
    const folder = files[0]!.webkitRelativePath.split('/')[0] || 'folder'
    addFolder(
      folder,
      files.map((file) => ({ file, path: file.webkitRelativePath || `${folder}/${file.name}` })),
    )
    pump()
  }

  const drop = (dropped: Dropped[]) => {
    setError(null)
    const files = dropped.flatMap((item) => (item.kind === 'file' ? [item.file] : []))
    addFiles(files)
    for (const item of dropped) if (item.kind === 'folder') addFolder(item.name, item.parts)
    pump()
  }

  const cancel = (id: number) => {
    const upload = running.current.get(id)
    if (upload) return upload.cancel()
    waiting.current = waiting.current.filter((entry) => entry.id !== id)
    patch(id, { state: 'cancelled' })
  }

  return (
    <section aria-labelledby="upload-title">
      <h2 id="upload-title" tabIndex={-1}>
        Upload
      </h2>
      <div className="filters">
        <NetworkPicker value={network} onChange={setNetwork} describedBy="network-hint" />
        <label>
          Group
          <select value={groupId} onChange={(e) => setGroupId(e.target.value)}>
            <option value="">No group</option>
            {groups.map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Name (optional)
          <input value={name} onChange={(e) => setName(e.target.value)} aria-describedby="name-hint" />
        </label>
        <label>
          Keyvalues
          <input value={keyvalues} placeholder="env=prod, team=web" onChange={(e) => setKeyvalues(e.target.value)} />
        </label>
      </div>
      <p id="network-hint" className="hint">
        Private files are read only with this account's tokens and the download links it signs. Public files can be read
        by anyone who has their CID, here and through any IPFS gateway, and copies others make cannot be taken back.
      </p>
      <p id="name-hint" className="hint">
        The name applies to a single file or to a folder. Files over {formatBytes(RESUMABLE_THRESHOLD)} go up resumably
        (tus): if the connection drops, choosing the same file again continues where it stopped.
      </p>
      <DropZone onDrop={drop} onError={setError}>
        <div className="pickers">
          <label className="picker">
            <span>Choose files</span>
            <input type="file" multiple onChange={chooseFiles} />
          </label>
          <label className="picker">
            <span>Choose a folder</span>
            <input type="file" ref={folderInput} onChange={chooseFolder} />
          </label>
        </div>
      </DropZone>
      <ErrorNote error={error} />
      {items.length > 0 && (
        <ul className="uploads" aria-label="Uploads">
          {items.map((item) => (
            <UploadRow
              key={item.id}
              item={item}
              onCancel={() => cancel(item.id)}
              onPause={() => {
                running.current.get(item.id)?.pause?.()
                patch(item.id, { state: 'paused', bytesPerSecond: 0 })
              }}
              onResume={() => {
                running.current.get(item.id)?.resume?.()
                patch(item.id, { state: 'uploading' })
              }}
              onShow={() => onShow(network)}
            />
          ))}
        </ul>
      )}
    </section>
  )
}

function UploadRow({
  item,
  onCancel,
  onPause,
  onResume,
  onShow,
}: {
  item: Item
  onCancel(): void
  onPause(): void
  onResume(): void
  onShow(): void
}) {
  const percent = item.total > 0 ? Math.floor((item.sent / item.total) * 100) : 0
  const active = item.state === 'uploading' || item.state === 'waiting' || item.state === 'paused'
  const labelId = `upload-${item.id}`
  return (
    <li className={`upload ${item.state}`}>
      <div className="upload-head">
        <strong id={labelId}>{item.label}</strong>
        <span className="hint">
          {item.detail}, {formatBytes(item.total)}
        </span>
      </div>
      <progress max={100} value={item.state === 'done' ? 100 : percent} aria-labelledby={labelId} />
      <p className="upload-line" aria-live={item.state === 'uploading' ? 'off' : 'polite'}>
        {item.state === 'uploading' && (
          <>
            {percent}% · {formatBytes(item.sent)} of {formatBytes(item.total)} · {formatBytes(item.bytesPerSecond)}/s ·{' '}
            {formatDuration(secondsLeft(item.sent, item.total, item.bytesPerSecond))} left
          </>
        )}
        {item.state === 'waiting' && 'Waiting'}
        {item.state === 'paused' && `Paused at ${percent}%`}
        {item.state === 'cancelled' && 'Cancelled'}
        {item.state === 'failed' && <span className="error">Failed: {item.error}</span>}
        {item.state === 'done' && item.result && (
          <>
            Uploaded · <span className="mono break">{item.result.cid}</span>{' '}
            <button type="button" className="link" onClick={onShow}>
              Show in files
            </button>
          </>
        )}
      </p>
      {active && (
        <div className="actions">
          {item.resumable && item.state === 'uploading' && (
            <button type="button" onClick={onPause}>
              Pause
            </button>
          )}
          {item.resumable && item.state === 'paused' && (
            <button type="button" onClick={onResume}>
              Resume
            </button>
          )}
          <button type="button" onClick={onCancel} aria-label={`Cancel upload of ${item.label}`}>
            Cancel
          </button>
        </div>
      )}
    </li>
  )
}
