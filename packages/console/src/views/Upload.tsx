import { type ChangeEvent, useEffect, useRef, useState } from 'react'
import type { Api } from '../api/client'
import type { Group, GroupList, Network } from '../api/types'
import { ErrorNote, NetworkPicker } from '../components/common'
import { DropZone } from '../components/DropZone'
import { GroupSelect } from '../components/GroupSelect'
import { UploadList } from '../components/UploadList'
import { formatBytes, parseKeyvalues } from '../format'
import type { Dropped } from '../uploads/drop'
import { RESUMABLE_THRESHOLD, type UploadOptions } from '../uploads/upload'
import { useUploadQueue } from '../uploads/use-upload-queue'

export function UploadView({ api, onShow }: { api: Api; onShow(network: Network): void }) {
  // private unless the user chooses otherwise, as the API and the CLI: public cannot be taken back
  const [network, setNetwork] = useState<Network>('private')
  const [groups, setGroups] = useState<Group[]>([])
  const [groupId, setGroupId] = useState('')
  const [name, setName] = useState('')
  const [keyvalues, setKeyvalues] = useState('')
  const [error, setError] = useState<unknown>(null)
  const queue = useUploadQueue(api)
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

  /** The form's choices for the next uploads; undefined (and the error shown) when the keyvalues do not parse. */
  const options = (): UploadOptions | undefined => {
    try {
      return {
        network,
        groupId: groupId || undefined,
        name: name.trim() || undefined,
        keyvalues: parseKeyvalues(keyvalues),
      }
    } catch (failure) {
      setError(failure)
      return undefined
    }
  }

  const chooseFiles = (event: ChangeEvent<HTMLInputElement>) => {
    setError(null)
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    const chosen = options()
    if (chosen) queue.addFiles(files, chosen)
  }

  const chooseFolder = (event: ChangeEvent<HTMLInputElement>) => {
    setError(null)
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    if (files.length === 0) return
    const folder = files[0]!.webkitRelativePath.split('/')[0] || 'folder'
    const chosen = options()
    if (!chosen) return
    queue.addFolder(
      folder,
      files.map((file) => ({ file, path: file.webkitRelativePath || `${folder}/${file.name}` })),
      chosen,
    )
  }

  const drop = (dropped: Dropped[]) => {
    setError(null)
    const chosen = options()
    if (chosen) queue.addDropped(dropped, chosen)
  }

  return (
    <section aria-labelledby="upload-title">
      <h2 id="upload-title" tabIndex={-1}>
        Upload
      </h2>
      <div className="filters">
        <NetworkPicker value={network} onChange={setNetwork} describedBy="network-hint" />
        <GroupSelect label="Group" groups={groups} value={groupId} onChange={setGroupId} />
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
      <UploadList queue={queue} onShow={onShow} />
    </section>
  )
}
