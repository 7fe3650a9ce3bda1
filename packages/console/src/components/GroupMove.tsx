import { type FormEvent, useState } from 'react'
import type { Api } from '../api/client'
import { moveToGroup } from '../api/file-actions'
import type { FileItem, Group, Network } from '../api/types'
import { ErrorNote, Status } from './common'
import { GroupSelect } from './GroupSelect'
import { useAction } from './use-action'

/** One file into a group (out of the one it was in) or out of any group. */
export function GroupMove({
  api,
  network,
  file,
  groups,
  onMoved,
}: {
  api: Api
  network: Network
  file: FileItem
  groups: Group[]
  onMoved(file: FileItem): void
}) {
  const [target, setTarget] = useState(file.group_id ?? '')
  const { error, done, setDone, run } = useAction()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await moveToGroup(api, network, file, target || null)
      const group = groups.find((g) => g.id === target)
      setDone(group ? `Moved to ${group.name}.` : 'Taken out of its group.')
      onMoved({ ...file, group_id: target || null })
    })
  }
  return (
    <form onSubmit={submit} className="block" aria-labelledby="group-move-title">
      <h4 id="group-move-title">Group</h4>
      <GroupSelect label="Move to group" groups={groups} value={target} onChange={setTarget} />
      <button type="submit" disabled={target === (file.group_id ?? '')}>
        Move
      </button>
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
    </form>
  )
}
