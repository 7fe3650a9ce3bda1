import { type ReactNode, useId, useState } from 'react'
import { messageOf } from '../api/client'
import { NETWORKS, type Network } from '../api/types'

/** An error, announced to screen readers as it appears; `id` for the field it is about to name it. */
export function ErrorNote({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null
  return (
    <p className="error" role="alert" id={id}>
      {messageOf(error)}
    </p>
  )
}

/** A polite announcement of what just happened ("Saved", "Deleted"). */
export function Status({ children }: { children: ReactNode }) {
  return (
    <p className="status" role="status">
      {children}
    </p>
  )
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const copy = async () => {
    setState((await copyText(text)) ? 'copied' : 'failed')
    setTimeout(() => setState('idle'), 2000)
  }
  return (
    <button type="button" onClick={copy} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text' : label}
    </button>
  )
}

/**
 * The async clipboard exists in secure contexts only: a server reached over plain http on a LAN
 * address gets the older copy command on a hidden text field instead.
 */
export async function copyText(text: string): Promise<boolean> {
  if (window.isSecureContext && navigator.clipboard) {
    return navigator.clipboard.writeText(text).then(
      () => true,
      () => false,
    )
  }
  const field = document.createElement('textarea')
  field.value = text
  field.setAttribute('readonly', '')
  field.style.position = 'fixed'
  field.style.opacity = '0'
  document.body.append(field)
  field.select()
  try {
    return document.execCommand('copy')
  } finally {
    field.remove()
  }
}

export function NetworkPicker({
  value,
  onChange,
  describedBy,
}: {
  value: Network
  onChange(network: Network): void
  /** The id of a text saying what the choice means, read out with the group. */
  describedBy?: string
}) {
  const name = useId()
  return (
    <fieldset className="segmented" aria-describedby={describedBy}>
      <legend>Network</legend>
      {NETWORKS.map((network) => (
        <label key={network}>
          <input
            type="radio"
            name={name}
            value={network}
            checked={value === network}
            onChange={() => onChange(network)}
          />
          {network === 'public' ? 'Public' : 'Private'}
        </label>
      ))}
    </fieldset>
  )
}

/** A destructive action in two steps, so a stray click or key press destroys nothing. */
export function ConfirmButton({
  label,
  what,
  onConfirm,
}: {
  /** The button's visible text, e.g. "Delete". */
  label: string
  /** What is destroyed, for the question and the accessible name, e.g. `"notes"`. */
  what: string
  onConfirm(): void
}) {
  const [asking, setAsking] = useState(false)
  if (!asking) {
    return (
      <button type="button" className="danger" aria-label={`${label} ${what}`} onClick={() => setAsking(true)}>
        {label}
      </button>
    )
  }
  return (
    <fieldset className="actions confirm">
      <legend>
        {label} “{what}”?
      </legend>
      <button
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false)
          onConfirm()
        }}
      >
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Keep it
      </button>
    </fieldset>
  )
}
