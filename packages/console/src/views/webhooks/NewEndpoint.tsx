import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { Api } from '../../api/client'
import type { WebhookEndpoint, WebhookEventType } from '../../api/types'
import { CopyButton, ErrorNote } from '../../components/common'
import { useAction } from '../../components/use-action'
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES } from './event-types'

/** The answer to a registration: the endpoint and its signing secret, which no other answer holds. */
export type CreatedEndpoint = WebhookEndpoint & { secret: string }

/** Registers an endpoint for the event types ticked; the server checks the URL (a 400 says why not). */
export function NewEndpoint({ api, onCreated }: { api: Api; onCreated(endpoint: CreatedEndpoint): void }) {
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [types, setTypes] = useState<Set<WebhookEventType>>(new Set())
  const { error, setError, busy, run } = useAction()

  const toggle = (type: WebhookEventType, on: boolean) =>
    setTypes((all) => {
      const next = new Set(all)
      if (on) next.add(type)
      else next.delete(type)
      return next
    })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (types.size === 0) return setError(new Error('Choose at least one event type.'))
    void run(async () => {
      const { data } = await api.send<{ data: CreatedEndpoint }>('POST', 'v3/webhooks', {
        url: url.trim(),
        // in the list's order, whatever the order they were ticked in
        event_types: WEBHOOK_EVENT_TYPES.filter((type) => types.has(type)),
        ...(description.trim() ? { description: description.trim() } : {}),
      })
      setUrl('')
      setDescription('')
      setTypes(new Set())
      onCreated(data)
    })
  }

  return (
    <>
      <form className="filters" onSubmit={submit} aria-labelledby="new-endpoint-title">
        <h3 id="new-endpoint-title">New endpoint</h3>
        <label className="grow">
          URL
          <input
            type="url"
            value={url}
            required
            spellCheck={false}
            placeholder="https://example.com/webhooks/pinfold"
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <label>
          Description (optional)
          <input value={description} maxLength={500} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <fieldset className="event-types">
          <legend>Event types</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label className="check" key={type}>
              <input type="checkbox" checked={types.has(type)} onChange={(e) => toggle(type, e.target.checked)} />
              <span>
                <code>{type}</code> <span className="hint">{WEBHOOK_EVENT_LABELS[type]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Add endpoint
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
    </>
  )
}

/**
 * A new endpoint's signing secret, shown this once: the server keeps it to sign deliveries and
 * never answers it again. The focus moves here, so a screen reader reads it out.
 */
export function SecretOnce({ endpoint, onDone }: { endpoint: CreatedEndpoint; onDone(): void }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <section className="block secret-once" aria-labelledby="secret-title">
      <h3 id="secret-title" ref={heading} tabIndex={-1}>
        Signing secret of <span className="break">{endpoint.url}</span>
      </h3>
      <p>
        <strong>Copy it now: you will not see this again.</strong> Verify each delivery with it (the{' '}
        <code>webhook-signature</code> header, by the Standard Webhooks scheme). Lost, it cannot be shown again: delete
        the endpoint and add it anew.
      </p>
      <label>
        Signing secret
        <input readOnly className="mono" value={endpoint.secret} onFocus={(e) => e.target.select()} />
      </label>
      <div className="actions">
        <CopyButton text={endpoint.secret} label="Copy secret" />
        <button type="button" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  )
}
