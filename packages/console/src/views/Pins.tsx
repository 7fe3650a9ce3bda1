import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react'
import { type Api, ApiError } from '../api/client'
import type { FileItem, PinJob, PinQueue } from '../api/types'
import { ErrorNote, Status } from '../components/common'
import { useAction } from '../components/use-action'
import { formatDate } from '../format'
import '../components/fileui.css'

/** How often the queue is asked again while the view is open. */
const POLL_MS = 2000

const STATUS_TEXT: Record<PinJob['status'], string> = {
  prechecking: 'Waiting',
  searching: 'Searching the network',
  retrieving: 'Fetching blocks',
  expired: 'Failed: not found in time',
  backfilled: 'Backfilled',
  over_free_limit: 'Failed: over the account limit',
  over_max_size: 'Failed: too large',
  invalid_object: 'Failed: invalid content',
  bad_host_node: 'Failed: bad host node',
}

const failed = (job: PinJob) => !['prechecking', 'searching', 'retrieving'].includes(job.status)

/** A request made here that has left the queue: pinned (now a public file) or gone. */
interface Finished {
  id: string
  name: string
  file?: FileItem
}

/**
 * Pin by CID: the server fetches a DAG from the IPFS network, checks every block against its CID
 * and keeps it as a public file. The queue lists the requests not pinned yet (waiting, running,
 * failed); a pinned request leaves it and becomes a file with the request's id.
 */
export function PinsView({ api, onShowFiles }: { api: Api; onShowFiles(): void }) {
  const [cid, setCid] = useState('')
  const [name, setName] = useState('')
  const [hostNodes, setHostNodes] = useState('')
  const [jobs, setJobs] = useState<PinJob[] | null>(null)
  const { error, setError, done, setDone, run } = useAction()
  const [finished, setFinished] = useState<Finished[]>([])
  // requests made in this view that have not been seen to leave the queue yet
  const watching = useRef(new Map<string, string>())
  const idle = useRef(false)

  const refresh = useCallback(async () => {
    try {
      const { data } = await api.get<{ data: PinQueue }>('v3/files/public/pin_by_cid', { limit: 100, sort: 'DSC' })
      setJobs(data.jobs)
      idle.current = data.jobs.length === 0
      const open = new Set(data.jobs.map((job) => job.id))
      for (const [id, label] of watching.current) {
        if (open.has(id)) continue
        watching.current.delete(id)
        // out of the queue and not cancelled here: pinned, and its file has the request's id
        const file = await api.get<{ data: FileItem }>(`v3/files/public/${id}`).then(
          ({ data: found }) => found,
          (failure) => (failure instanceof ApiError && failure.status === 404 ? undefined : Promise.reject(failure)),
        )
        setFinished((all) => [{ id, name: label, file }, ...all])
      }
    } catch (failure) {
      setError(failure)
    }
  }, [api, setError])

  useEffect(() => {
    void refresh()
    // asked again only while something can change: a request open, and the tab in sight
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && !(idle.current && watching.current.size === 0)) void refresh()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [refresh])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const nodes = hostNodes
      .split(/\s+/)
      .map((node) => node.trim())
      .filter(Boolean)
    void run(async () => {
      const { data } = await api.send<{ data: PinJob }>('POST', 'v3/files/public/pin_by_cid', {
        cid: cid.trim(),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(nodes.length > 0 ? { host_nodes: nodes } : {}),
      })
      watching.current.set(data.id, data.name || data.cid)
      setDone(`Queued ${data.name || data.cid}.`)
      setCid('')
      setName('')
      await refresh()
    })
  }

  const cancel = (job: PinJob) =>
    run(async () => {
      watching.current.delete(job.id)
      await api.send('DELETE', `v3/files/public/pin_by_cid/${job.id}`)
      setDone(failed(job) ? `Removed ${job.name || job.cid}.` : `Cancelled ${job.name || job.cid}.`)
      await refresh()
    })

  return (
    <section aria-labelledby="pins-title">
      <h2 id="pins-title" tabIndex={-1}>
        Pin by CID
      </h2>
      <form className="filters" onSubmit={submit} aria-labelledby="pin-new-title">
        <h3 id="pin-new-title">Pin a CID from the IPFS network</h3>
        <label className="grow">
          CID to pin
          <input value={cid} spellCheck={false} onChange={(e) => setCid(e.target.value)} required />
        </label>
        <label>
          Name (optional)
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="grow">
          Host nodes (optional, one multiaddr per line)
          <textarea
            value={hostNodes}
            rows={2}
            spellCheck={false}
            placeholder="/dns4/node.example.com/tcp/4001/p2p/12D3Koo…"
            onChange={(e) => setHostNodes(e.target.value)}
          />
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Pin
          </button>
        </div>
      </form>
      <p className="hint">
        The content is fetched, every block checked against its CID, and kept as a public file. The queue below
        refreshes every {POLL_MS / 1000} seconds while it holds requests.
      </p>
      <ErrorNote error={error} />
      {done && <Status>{done}</Status>}
      <h3 id="queue-title">Queue</h3>
      {jobs && jobs.length === 0 && <p>No pin requests waiting, running or failed.</p>}
      {jobs && jobs.length > 0 && (
        <table className="cards" aria-labelledby="queue-title">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">CID</th>
              <th scope="col">Status</th>
              <th scope="col">Queued</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id}>
                <td data-label="Name" className="break">
                  {job.name}
                </td>
                <td data-label="CID" className="mono break">
                  {job.cid}
                </td>
                <td data-label="Status">
                  <div>
                    <span className={failed(job) ? 'badge failed' : 'badge'}>
                      {STATUS_TEXT[job.status] ?? job.status}
                    </span>
                    {job.reason && <p className="hint break reason">{job.reason}</p>}
                  </div>
                </td>
                <td data-label="Queued">{formatDate(job.date_queued)}</td>
                <td data-label="Actions">
                  <button type="button" onClick={() => void cancel(job)}>
                    {failed(job) ? 'Remove' : 'Cancel'}
                    <span className="visually-hidden"> pin of {job.name || job.cid}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {finished.length > 0 && (
        <>
          <h3 id="finished-title">Finished here</h3>
          <ul className="plain outcomes" aria-labelledby="finished-title">
            {finished.map((item) => (
              <li key={item.id}>
                <strong>{item.name}</strong>:{' '}
                {item.file ? (
                  <>
                    pinned as a public file{' '}
                    <button type="button" className="link" onClick={onShowFiles}>
                      Show in files
                    </button>
                  </>
                ) : (
                  'no longer queued'
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
