import { type ReactNode, useEffect, useRef } from 'react'

/**
 * The second step of a consequential action: the question, "yes" and "cancel". Focus moves to
 * "yes" as it appears, so a keyboard user is where the answer is.
 */
export function Confirm({
  question,
  yes,
  busy,
  onYes,
  onCancel,
}: {
  question: ReactNode
  yes: string
  busy: boolean
  onYes(): void
  onCancel(): void
}) {
  const first = useRef<HTMLButtonElement>(null)
  useEffect(() => first.current?.focus(), [])
  return (
    <fieldset className="actions confirm">
      <legend>{question}</legend>
      <button ref={first} type="button" className="danger" disabled={busy} onClick={onYes}>
        {yes}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </fieldset>
  )
}
