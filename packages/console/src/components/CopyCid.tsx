import { useEffect, useState } from 'react'
import { copyText } from './common'

/**
 * "Copy CID" in a row of the list, described by the row's file name (`describedBy`: the id of the
 * element naming it) so a screen reader says whose CID; "Copied" shown and announced for two seconds
 * once the CID is on the clipboard.
 */
export function CopyCid({ cid, describedBy }: { cid: string; describedBy: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), 2000)
    return () => clearTimeout(timer)
  }, [state])
  return (
    <button
      type="button"
      className="copy-cid"
      aria-live="polite"
      aria-describedby={describedBy}
      onClick={async () => setState((await copyText(cid)) ? 'copied' : 'failed')}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy CID'}
    </button>
  )
}
