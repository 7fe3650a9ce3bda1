import { type FormEvent, type RefObject, useId, useRef, useState } from 'react'
import type { AdminTenantDetail } from '../../api/admin'
import type { Api } from '../../api/client'
import { ErrorNote, Status } from '../../components/common'
import { useAction } from '../../components/use-action'
import { Confirm } from './Confirm'

interface ActionProps {
  api: Api
  /** The tenant's admin path, `admin/v1/tenants/{id}`. */
  path: string
  tenant: AdminTenantDetail
  /** What the last action here did, shown under it. */
  done: string | null
  /** The action succeeded: what it did, in words. */
  onChanged(message: string): void
}

/**
 * Suspend (its tokens and keys refused; its public content kept or hidden, by choice, confirmed
 * before it is sent) or resume the tenant.
 */
export function Suspension({ api, path, tenant, done, onChanged }: ActionProps) {
  const [reason, setReason] = useState('')
  const [hide, setHide] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const { error, busy, run } = useAction()
  const id = useId()
  const trigger = useRef<HTMLButtonElement>(null)

  const change = (action: () => Promise<unknown>, message: string) =>
    run(async () => {
      await action()
      setConfirming(false)
      setReason('')
      onChanged(message)
    })

  const suspend = () =>
    change(
      () => api.send('POST', `${path}/suspend`, { reason, hide_content: hide }),
      hide
        ? `Suspended ${tenant.id}: its requests are refused and its public content is hidden.`
        : `Suspended ${tenant.id}: its requests are refused; its public content is still served.`,
    )

  const ask = (event: FormEvent) => {
    event.preventDefault()
    setConfirming(true)
  }

  return (
    <div className="block">
      <h3 id={`${id}-title`}>{tenant.suspension ? 'Suspended' : 'Suspend'}</h3>
      {tenant.suspension && (
        <>
          <p>Its tokens and API keys are refused until it is resumed.</p>
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => change(() => api.send('POST', `${path}/resume`), `Resumed ${tenant.id}.`)}
          >
            Resume tenant
          </button>
        </>
      )}
      <form className="stack" onSubmit={ask} aria-labelledby={`${id}-title`}>
        {tenant.suspension && <p className="hint">Suspending again replaces the reason and the content choice.</p>}
        <label>
          Reason (named in every refusal)
          <input value={reason} maxLength={500} required onChange={(e) => setReason(e.target.value)} />
        </label>
        <fieldset className="plain-fieldset">
          <legend>Its public content</legend>
          <label className="check">
            <input type="radio" name={`${id}-content`} checked={!hide} onChange={() => setHide(false)} />
            Keep serving it
          </label>
          <label className="check">
            <input type="radio" name={`${id}-content`} checked={hide} onChange={() => setHide(true)} />
            Hide it from the gateways
          </label>
        </fieldset>
        {!confirming && (
          <button ref={trigger} type="submit" className="danger" disabled={busy}>
            Suspend tenant
          </button>
        )}
      </form>
      {confirming && (
        <Confirm
          question={`Suspend “${tenant.id}”${hide ? ' and hide its public content' : ''}?`}
          yes="Yes, suspend"
          busy={busy}
          onYes={suspend}
          onCancel={() => cancel(setConfirming, trigger)}
        />
      )}
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
    </div>
  )
}

/** Revokes every API key of the tenant, after a confirmation. */
export function KeysRevocation({ api, path, tenant, done, onChanged }: ActionProps) {
  const [confirming, setConfirming] = useState(false)
  const trigger = useRef<HTMLButtonElement>(null)
  const { error, busy, run } = useAction()

  const revoke = () =>
    run(async () => {
      const { data } = await api.send<{ data: { revoked: number } }>('POST', `${path}/keys/revoke`)
      setConfirming(false)
      onChanged(`Revoked ${data.revoked} API ${data.revoked === 1 ? 'key' : 'keys'} of ${tenant.id}.`)
    })

  return (
    <div className="block">
      <h3>API keys</h3>
      <p>
        {tenant.api_keys.active} active of {tenant.api_keys.total}. Revoking stops every key it has now; keys it creates
        later work (suspend the tenant to stop those too).
      </p>
      {confirming ? (
        <Confirm
          question={`Revoke every API key of “${tenant.id}”?`}
          yes="Yes, revoke all"
          busy={busy}
          onYes={revoke}
          onCancel={() => cancel(setConfirming, trigger)}
        />
      ) : (
        <button ref={trigger} type="button" className="danger" onClick={() => setConfirming(true)}>
          Revoke all keys
        </button>
      )}
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
    </div>
  )
}

/** A cancelled confirmation gives the focus back to the button that asked for it (shown again). */
function cancel(setConfirming: (value: boolean) => void, trigger: RefObject<HTMLButtonElement | null>) {
  setConfirming(false)
  requestAnimationFrame(() => trigger.current?.focus())
}
