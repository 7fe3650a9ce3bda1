import { type FormEvent, useCallback, useState } from 'react'
import type { Api } from '../api/client'
import type { PaymentInstruction } from '../api/types'
import { ConfirmButton, CopyButton, ErrorNote } from '../components/common'
import { useAction } from '../components/use-action'
import { useLoad } from '../components/use-load'
import { formatDate } from '../format'

interface InstructionList {
  payment_instructions: PaymentInstruction[]
  next_page_token?: string
}

const BASE = 'v3/x402/payment_instructions'

/**
 * x402 payment instructions: the price of a private file's CIDs. A buyer pays per request at
 * `/v1/retrieve/private/{cid}` and gets a short-lived link back.
 */
export function PaymentsView({ api }: { api: Api }) {
  const [list, setList] = useState<PaymentInstruction[]>([])
  const { error, setError, run } = useAction()
  const [form, setForm] = useState({ name: '', description: '', amount: '', payTo: '' })
  const [open, setOpen] = useState<string | null>(null)

  const load = useLoad(
    useCallback(async () => {
      const { data } = await api.get<{ data: InstructionList }>(BASE, { limit: 100 })
      setList(data.payment_instructions)
    }, [api]),
    setError,
  )

  const create = (event: FormEvent) => {
    event.preventDefault()
    const requirement: Record<string, string> = {}
    if (form.amount.trim()) requirement.amount = form.amount.trim()
    if (form.payTo.trim()) requirement.pay_to = form.payTo.trim()
    void run(async () => {
      await api.send('POST', BASE, {
        name: form.name.trim(),
        description: form.description.trim() || undefined,
        payment_requirements: [requirement],
      })
      setForm({ name: '', description: '', amount: '', payTo: '' })
      await load()
    })
  }

  return (
    <section aria-labelledby="payments-title">
      <h2 id="payments-title" tabIndex={-1}>
        Payment instructions
      </h2>
      <p className="hint">
        Sell access to private files per request (x402). Attach CIDs to an instruction; buyers pay at{' '}
        <code>{api.base}v1/retrieve/private/&lt;cid&gt;</code>.
      </p>
      <form className="filters" onSubmit={create} aria-labelledby="new-instruction-title">
        <h3 id="new-instruction-title">New instruction</h3>
        <label>
          Name
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
        </label>
        <label>
          Description
          <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </label>
        <label>
          Amount (USDC atomic units)
          <input
            inputMode="numeric"
            placeholder="server default"
            value={form.amount}
            onChange={(e) => setForm({ ...form, amount: e.target.value })}
          />
        </label>
        <label>
          Pay to (0x address)
          <input
            placeholder="server default"
            spellCheck={false}
            value={form.payTo}
            onChange={(e) => setForm({ ...form, payTo: e.target.value })}
          />
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Create instruction
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {list.length === 0 && <p>No payment instructions.</p>}
      <ul className="rows">
        {list.map((instruction) => (
          <li className="row column" key={instruction.id}>
            <div>
              <strong>{instruction.name}</strong>{' '}
              <span className="hint">created {formatDate(instruction.created_at)}</span>
              {instruction.description && <p>{instruction.description}</p>}
              <ul className="plain">
                {instruction.payment_requirements.map((r) => (
                  <li key={`${r.network}${r.pay_to}${r.asset}`}>
                    {r.amount} units of <span className="mono break">{r.asset}</span> on {r.network} to{' '}
                    <span className="mono break">{r.pay_to}</span>
                  </li>
                ))}
              </ul>
            </div>
            <div className="actions">
              <button
                type="button"
                aria-expanded={open === instruction.id}
                onClick={() => setOpen(open === instruction.id ? null : instruction.id)}
              >
                CIDs
              </button>
              <ConfirmButton
                label="Delete"
                what={`instruction ${instruction.name}`}
                onConfirm={() =>
                  run(async () => {
                    await api.send('DELETE', `${BASE}/${instruction.id}`)
                    await load()
                  })
                }
              />
            </div>
            {open === instruction.id && <InstructionCids api={api} id={instruction.id} />}
          </li>
        ))}
      </ul>
    </section>
  )
}

function InstructionCids({ api, id }: { api: Api; id: string }) {
  const [cids, setCids] = useState<string[]>([])
  const [cid, setCid] = useState('')
  const { error, setError, run } = useAction()
  const load = useLoad(
    useCallback(
      async () =>
        setCids((await api.get<{ data: { cids: string[] } }>(`${BASE}/${id}/cids`, { limit: 100 })).data.cids),
      [api, id],
    ),
    setError,
  )
  const act = (method: 'PUT' | 'DELETE', target: string) =>
    run(async () => {
      await api.send(method, `${BASE}/${id}/cids/${encodeURIComponent(target)}`)
      setCid('')
      await load()
    })
  return (
    <div className="block">
      {cids.length === 0 && <p className="hint">No CIDs yet.</p>}
      <ul className="plain">
        {cids.map((entry) => (
          <li key={entry}>
            <span className="mono break">{entry}</span>{' '}
            <CopyButton text={`${api.base}v1/retrieve/private/${entry}`} label="Copy paid URL" />{' '}
            <button type="button" onClick={() => act('DELETE', entry)} aria-label={`Remove ${entry}`}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        className="inline"
        onSubmit={(event) => {
          event.preventDefault()
          void act('PUT', cid.trim())
        }}
      >
        <label>
          Add CID
          <input value={cid} spellCheck={false} onChange={(e) => setCid(e.target.value)} required />
        </label>
        <button type="submit">Add</button>
      </form>
      <ErrorNote error={error} />
    </div>
  )
}
