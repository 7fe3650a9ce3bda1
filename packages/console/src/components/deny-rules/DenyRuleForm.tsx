import { type FormEvent, useId, useState } from 'react'
import { ErrorNote } from '../common'
import { useAction } from '../use-action'
import './deny-rules.css'

/**
 * One line of a deny list to add (the compact denylist format, IPIP-383). The server validates it:
 * its 400, what is wrong with the line, is shown under the field and read with it.
 */
export function DenyRuleForm({ onAdd }: { onAdd(rule: string): Promise<void> }) {
  const [rule, setRule] = useState('')
  const { error, busy, run } = useAction()
  const id = useId()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await onAdd(rule)
      setRule('')
    })
  }

  return (
    <form className="filters deny-add" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Add a rule</h3>
      <label>
        Rule
        <input
          className="mono"
          value={rule}
          spellCheck={false}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error ${id}-help` : `${id}-help`}
          onChange={(e) => setRule(e.target.value)}
        />
      </label>
      <ErrorNote id={`${id}-error`} error={error} />
      <p id={`${id}-help`} className="hint">
        One line: <code>/ipfs/CID</code>, <code>/ipfs/CID/path</code>, <code>/ipfs/CID/path*</code>,{' '}
        <code>{'//double-hash'}</code>; <code>!</code> first allows instead. Later rules win.
      </p>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Add rule
        </button>
      </div>
    </form>
  )
}
