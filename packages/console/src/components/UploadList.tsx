import type { Network } from '../api/types'
import { formatBytes, formatDuration } from '../format'
import { secondsLeft } from '../uploads/rate'
import { ended, type QueuedUpload, type UploadQueue } from '../uploads/use-upload-queue'

/**
 * The uploads of a queue, one row each: progress, rate and time left, pause and resume (tus),
 * cancel, and the CID once done. `onShow`: a link from a finished upload to its network's files
 * (absent where the list is the files already).
 */
export function UploadList({ queue, onShow }: { queue: UploadQueue; onShow?: (network: Network) => void }) {
  if (queue.items.length === 0) return null
  return (
    <>
      <ul className="uploads" aria-label="Uploads">
        {queue.items.map((item) => (
          <UploadRow
            key={item.id}
            item={item}
            onCancel={() => queue.cancel(item.id)}
            onPause={() => queue.pause(item.id)}
            onResume={() => queue.resume(item.id)}
            onShow={onShow && (() => onShow(item.network))}
          />
        ))}
      </ul>
      {queue.items.some(ended) && (
        <div className="actions uploads-clear">
          <button type="button" onClick={queue.clearEnded}>
            Clear finished uploads
          </button>
        </div>
      )}
    </>
  )
}

function UploadRow({
  item,
  onCancel,
  onPause,
  onResume,
  onShow,
}: {
  item: QueuedUpload
  onCancel(): void
  onPause(): void
  onResume(): void
  onShow: (() => void) | undefined
}) {
  const percent = item.total > 0 ? Math.floor((item.sent / item.total) * 100) : 0
  const active = item.state === 'uploading' || item.state === 'waiting' || item.state === 'paused'
  const labelId = `upload-${item.id}`
  return (
    <li className={`upload ${item.state}`}>
      <div className="upload-head">
        <strong id={labelId}>{item.label}</strong>
        <span className="hint">
          {item.detail}, {formatBytes(item.total)}
        </span>
      </div>
      <progress max={100} value={item.state === 'done' ? 100 : percent} aria-labelledby={labelId} />
      <p className="upload-line" aria-live={item.state === 'uploading' ? 'off' : 'polite'}>
        {item.state === 'uploading' && (
          <>
            {percent}% · {formatBytes(item.sent)} of {formatBytes(item.total)} · {formatBytes(item.bytesPerSecond)}/s ·{' '}
            {formatDuration(secondsLeft(item.sent, item.total, item.bytesPerSecond))} left
          </>
        )}
        {item.state === 'waiting' && 'Waiting'}
        {item.state === 'paused' && `Paused at ${percent}%`}
        {item.state === 'cancelled' && 'Cancelled'}
        {item.state === 'failed' && <span className="error">Failed: {item.error}</span>}
        {item.state === 'done' && item.result && (
          <>
            Uploaded · <span className="mono break">{item.result.cid}</span>{' '}
            {onShow && (
              <button type="button" className="link" onClick={onShow}>
                Show in files
              </button>
            )}
          </>
        )}
      </p>
      {active && (
        <div className="actions">
          {item.resumable && item.state === 'uploading' && (
            <button type="button" onClick={onPause}>
              Pause
            </button>
          )}
          {item.resumable && item.state === 'paused' && (
            <button type="button" onClick={onResume}>
              Resume
            </button>
          )}
          <button type="button" onClick={onCancel} aria-label={`Cancel upload of ${item.label}`}>
            Cancel
          </button>
        </div>
      )}
    </li>
  )
}
