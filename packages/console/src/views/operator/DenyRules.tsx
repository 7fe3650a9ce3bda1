import { type FormEvent, useCallback, useEffect, useState } from 'react'
import type { DenyRule } from '../../api/admin'
import type { Api } from '../../api/client'
import { ConfirmButton, ErrorNote, Status } from '../../components/common'
import { formatDate } from '../../format'

/**
 * The operator's own deny rules (compact denylist format, IPIP-383), applied after every configured
 * list, so they win. The server validates a rule; its 400 says what is wrong with the line.
 */
export function DenyRulesView({ api }: { api: Api }) {
  const [rules, setRules] = useState<DenyRule[] | null>(null)
  const [rule, setRule] = useState('')
  const [error, setError] = useState<unknown>(null)
  const [addError, setAddError] = useState<unknown>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const load = useCallback(async () => {
    try {
      setRules((await api.get<{ data: { rules: DenyRule[] } }>('admin/v1/deny-rules')).data.rules)
    } catch (failure) {
      setError(failure)
    }
  }, [api])

  useEffect(() => {
    void load()
  }, [load])

  const add = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setAddError(null)
    setDone(null)
    try {
      const { data } = await api.send<{ data: DenyRule }>('POST', 'admin/v1/deny-rules', { rule })
      setRule('')
      setDone(`Added ${data.rule}: it applies from the next request.`)
      await load()
    } catch (failure) {
      setAddError(failure)
    } finally {
      setBusy(false)
    }
  }

  const remove = async (target: DenyRule) => {
    setError(null)
    setDone(null)
    try {
      await api.send('DELETE', `admin/v1/deny-rules/${encodeURIComponent(target.id)}`)
      setDone(`Removed ${target.rule}.`)
      await load()
    } catch (failure) {
      setError(failure)
    }
  }

  return (
    <section aria-labelledby="deny-title">
      <h2 id="deny-title" tabIndex={-1}>
        Deny rules
      </h2>
      <form className="filters deny-add" onSubmit={add} aria-labelledby="deny-add-title">
        <h3 id="deny-add-title">Add a rule</h3>
        <label>
          Rule
          <input
            className="mono"
            value={rule}
            spellCheck={false}
            required
            aria-describedby="deny-rule-help"
            onChange={(e) => setRule(e.target.value)}
          />
        </label>
        <p id="deny-rule-help" className="hint">
          One line: <code>/ipfs/CID</code>, <code>/ipfs/CID/path</code>, <code>/ipfs/CID/path*</code>,{' '}
          <code>{'//double-hash'}</code>; <code>!</code> first allows instead. Later rules win.
        </p>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Add rule
          </button>
        </div>
      </form>
      <ErrorNote error={addError} />
      {done && <Status>{done}</Status>}
      <ErrorNote error={error} />
      {rules && rules.length === 0 && <p>No deny rules of the operator’s own.</p>}
      {rules && rules.length > 0 && (
        <ul className="rows" aria-label="Deny rules">
          {rules.map((entry) => (
            <li className="row" key={entry.id}>
              <div>
                <span className="mono break">{entry.rule}</span>
                <div className="hint">
                  line {entry.line} · added {formatDate(entry.created_at)}
                </div>
              </div>
              <ConfirmButton label="Remove" what={entry.rule} onConfirm={() => void remove(entry)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
