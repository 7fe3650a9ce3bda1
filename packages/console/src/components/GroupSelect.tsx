import type { Group } from '../api/types'

/** A group to move or upload files to, or none (`''`): labelled, for the moves and the upload form alike. */
export function GroupSelect(props: {
  label: string
  groups: Group[]
  value: string
  onChange: (groupId: string) => void
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">No group</option>
        {props.groups.map((group) => (
          <option key={group.id} value={group.id}>
            {group.name}
          </option>
        ))}
      </select>
    </label>
  )
}
