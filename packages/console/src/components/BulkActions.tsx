import { useEffect, useRef, useState } from 'react'
import { type Api, messageOf } from '../api/client'
import { gatewayUrl, moveToGroup, signedLink } from '../api/file-actions'
import type { FileItem, Group, Network } from '../api/types'
import { CopyButton } from './common'
import { GroupSelect } from './GroupSelect'
import './fileui.css'

interface Outcome {
  file: FileItem
  ok: boolean
  /** What happened ("Deleted"), the error's message, or the link made. */
  text: string
  link?: string
}

const LINK_EXPIRIES = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
]

/**
 * Delete, move to a group or link every selected file. Each file is its own request, so one that
 * fails (gone meanwhile, a refused scope) is reported on its own line and the others go on.
 */
export function BulkActions({
  api,
  network,
  selected,
  groups,
  onChanged,
}: {
  api: Api
  network: Network
  selected: FileItem[]
  groups: Group[]
  /** After any action: the list is reloaded and the selection cleared. */
  onChanged(): void
}) {
  const [target, setTarget] = useState('')
  const [expires, setExpires] = useState(3600)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [outcomes, setOutcomes] = useState<{ action: string; items: Outcome[] } | null>(null)
  const summary = useRef<HTMLParagraphElement>(null)
  // the buttons pressed may be gone (a confirmation, rows deleted): focus goes to what happened
  useEffect(() => {
    if (outcomes) summary.current?.focus()
  }, [outcomes])
  const count = selected.length
  const files = `${count} file${count === 1 ? '' : 's'}`

  const run = async (
    action: string,
    each: (file: FileItem) => Promise<{ text: string; link?: string }>,
    changes = true,
  ) => {
    setBusy(true)
    setConfirming(false)
    const items: Outcome[] = []
    for (const file of selected) {
      try {
        items.push({ file, ok: true, ...(await each(file)) })
      } catch (failure) {
        items.push({ file, ok: false, text: `failed: ${messageOf(failure)}` })
      }
    }
    setOutcomes({ action, items })
    setBusy(false)
    if (changes) onChanged()
  }

  const remove = () =>
    run(`Delete ${files}`, async (file) => {
      await api.send('DELETE', `v3/files/${network}/${file.id}`)
      return { text: 'deleted' }
    })
  const move = () => {
    const group = groups.find((g) => g.id === target)
    return run(group ? `Move ${files} to ${group.name}` : `Take ${files} out of their groups`, async (file) => {
      await moveToGroup(api, network, file, target || null)
      return { text: group ? `moved to ${group.name}` : 'in no group' }
    })
  }
  const link = () =>
    run(
      `Links for ${files}`,
      async (file) => {
        const made = network === 'public' ? gatewayUrl(api, file.cid) : await signedLink(api, file.cid, expires)
        return { text: network === 'public' ? 'gateway URL' : 'signed link', link: made }
      },
      false,
    )

  const failed = outcomes?.items.filter((item) => !item.ok).length ?? 0
  return (
    <section className="bulk" aria-labelledby="bulk-title" aria-busy={busy}>
      <h3 id="bulk-title">{count > 0 ? `${files} selected` : 'Select files to act on several at once'}</h3>
      {count > 0 && (
        <div className="bulk-actions">
          {confirming ? (
            <fieldset className="actions confirm">
              <legend>Delete {files}? This cannot be undone.</legend>
              <button type="button" className="danger" onClick={remove} disabled={busy}>
                Yes, delete {files}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep them
              </button>
            </fieldset>
          ) : (
            <button type="button" className="danger" onClick={() => setConfirming(true)} disabled={busy}>
              Delete selected
            </button>
          )}
          <div className="actions">
            <GroupSelect label="Move selected to" groups={groups} value={target} onChange={setTarget} />
            <button type="button" onClick={move} disabled={busy}>
              Move selected
            </button>
          </div>
          <div className="actions">
            {network === 'private' && (
              <label>
                Links valid for
                <select value={expires} onChange={(e) => setExpires(Number(e.target.value))}>
                  {LINK_EXPIRIES.map(({ seconds, label }) => (
                    <option key={seconds} value={seconds}>
                      {label}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <button type="button" onClick={link} disabled={busy}>
              Create links
            </button>
          </div>
        </div>
      )}
      {outcomes && (
        <div role="status">
          <p ref={summary} tabIndex={-1} className={failed > 0 ? 'error' : 'status'}>
            {outcomes.action}: {outcomes.items.length - failed} done
            {failed > 0 && `, ${failed} failed`}.
          </p>
          <ul className="plain outcomes" aria-label="Results, one per file">
            {outcomes.items.map((item) => (
              <li key={item.file.id} className={item.ok ? undefined : 'error'}>
                <strong>{item.file.name || item.file.cid}</strong>: {item.text}
                {item.link && (
                  <span className="link-line">
                    <a className="mono break" href={item.link} target="_blank" rel="noopener noreferrer">
                      {item.link}
                    </a>
                    <CopyButton text={item.link} label={`Copy link of ${item.file.name || item.file.cid}`} />
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}
