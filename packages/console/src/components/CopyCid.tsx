import { useEffect, useState } from 'react'
import { copyText } from './common'

/**
 * "Copy CID" in a row of the list: the row's file named for screen readers (every row has one),
 * "Copied" shown and announced for two seconds once the CID is on the clipboard.
 */
export function CopyCid({ cid, name }: { cid: string; name: string }) {
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
      onClick={async () => setState((await copyText(cid)) ? 'copied' : 'failed')}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy CID'}
      <span className="visually-hidden"> of {name}</span>
    </button>
  )
}
