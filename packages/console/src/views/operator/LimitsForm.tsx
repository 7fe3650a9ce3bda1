import { type FormEvent, useId, useState } from 'react'
import type { AdminTenantAccount } from '../../api/admin'
import type { Api } from '../../api/client'
import { ErrorNote, Status } from '../../components/common'
import { useAction } from '../../components/use-action'
import { formatLimit, LIMITS, type LimitName } from './format'

/** Per limit: the deployment's default (left out of the request), no limit (null), or a value. */
type Choice = { mode: 'default' } | { mode: 'none' } | { mode: 'value'; text: string }

type Overrides = AdminTenantAccount['overrides']

function choicesOf(overrides: Overrides): Record<LimitName, Choice> {
  return Object.fromEntries(
    LIMITS.map(({ name }) => {
      const value = overrides[name]
      const choice: Choice =
        value === undefined
          ? { mode: 'default' }
          : value === null
            ? { mode: 'none' }
            : { mode: 'value', text: String(value) }
      return [name, choice]
    }),
  ) as Record<LimitName, Choice>
}

/**
 * The request body: what the operator typed goes to the server as typed (a number when it reads as
 * one), so the server's validation, not a copy of it here, says what is wrong.
 */
function bodyOf(choices: Record<LimitName, Choice>): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const { name } of LIMITS) {
    const choice = choices[name]
    if (choice.mode === 'none') body[name] = null
    if (choice.mode === 'value') {
      const text = choice.text.trim()
      body[name] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text
    }
  }
  return body
}

/** Sets the tenant's overrides as a whole (`PUT …/limits`); a limit left at "default" takes the deployment's. */
export function LimitsForm({
  api,
  path,
  overrides,
  done,
  onSaved,
}: {
  api: Api
  path: string
  overrides: Overrides
  /** What the last save did. */
  done: string | null
  onSaved(): void
}) {
  const [choices, setChoices] = useState(() => choicesOf(overrides))
  const { error, busy, run } = useAction()
  const id = useId()

  const save = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await api.send('PUT', path, bodyOf(choices))
      onSaved()
    })
  }

  const choose = (name: LimitName, choice: Choice) => setChoices({ ...choices, [name]: choice })

  return (
    <form className="block" onSubmit={save} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Set limits</h3>
      <p className="hint">Bytes and counts as whole numbers. “Default” takes the deployment’s setting.</p>
      <div className="limit-grid">
        {LIMITS.map(({ name, label, bytes }) => {
          const choice = choices[name]
          return (
            <div key={name} className="limit-row">
              {/* a label beside the select, not around it: inside, the chosen option would join its name */}
              <label htmlFor={`${id}-${name}-mode`}>{label}</label>
              <select
                id={`${id}-${name}-mode`}
                value={choice.mode}
                onChange={(e) => {
                  const mode = e.target.value as Choice['mode']
                  choose(name, mode === 'value' ? { mode, text: '' } : { mode })
                }}
              >
                <option value="default">Default</option>
                <option value="none">No limit</option>
                <option value="value">Set to…</option>
              </select>
              {choice.mode === 'value' && (
                <div>
                  <label>
                    New {label.toLowerCase()} limit{bytes ? ' in bytes' : ''}
                    <input
                      inputMode="numeric"
                      value={choice.text}
                      aria-describedby={bytes ? `${id}-${name}` : undefined}
                      onChange={(e) => choose(name, { mode: 'value', text: e.target.value })}
                    />
                  </label>
                  {bytes && (
                    <span id={`${id}-${name}`} className="hint">
                      {/^\d+$/.test(choice.text.trim()) ? formatLimit(name, Number(choice.text)) : ''}
                    </span>
                  )}
                </div>
              )}
            </div>
          )
        })}
      </div>
      <ErrorNote error={error} />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save limits'}
      </button>
      {done && <Status>{done}</Status>}
    </form>
  )
}
