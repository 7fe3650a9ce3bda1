import { lazy, Suspense, useEffect, useState } from 'react'
import type { Api } from '../api/client'
import { contentUrl } from '../api/file-actions'
import type { FileItem, Network } from '../api/types'
import { formatBytes } from '../format'
import { ErrorNote } from './common'
import './fileui.css'

const PdfPreview = lazy(() => import('./PdfPreview').then((module) => ({ default: module.PdfPreview })))

/** Bytes of a text file shown: one range request, however large the file. */
export const TEXT_PREVIEW_BYTES = 64 * 1024

/** How long the signed link of a private file's preview stays valid. */
const PREVIEW_LINK_SECONDS = 600

type Kind = 'image' | 'text' | 'pdf' | 'audio' | 'video'

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-ndjson|yaml|toml)|[^;]*\+(json|xml))/

export function previewKind(file: FileItem): Kind | undefined {
  if (file.number_of_files > 1) return undefined
  const type = file.mime_type.toLowerCase()
  if (type.startsWith('image/')) return 'image'
  if (type === 'application/pdf') return 'pdf'
  if (type.startsWith('audio/')) return 'audio'
  if (type.startsWith('video/')) return 'video'
  if (TEXT_TYPES.test(type)) return 'text'
  return undefined
}

/**
 * A file shown in the page: images, audio and video by URL (the browser streams them), text by one
 * bounded range, PDF by PDF.js. Public files come from the gateway; private ones through a
 * short-lived signed link, so no token ever sits in a URL.
 */
export function Preview({ api, network, file }: { api: Api; network: Network; file: FileItem }) {
  const kind = previewKind(file)
  const [url, setUrl] = useState<string | null>(null)
  const [error, setError] = useState<unknown>(null)
  const name = file.name || file.cid

  useEffect(() => {
    if (!kind) return
    let current = true
    contentUrl(api, network, file, PREVIEW_LINK_SECONDS).then(
      (made) => current && setUrl(made),
      (failure) => current && setError(failure),
    )
    return () => {
      current = false
    }
  }, [api, network, file, kind])

  return (
    <section className="block preview" aria-labelledby="preview-title">
      <h4 id="preview-title">Preview</h4>
      {!kind && <p className="hint">No preview for {file.number_of_files > 1 ? 'a folder' : file.mime_type}.</p>}
      <ErrorNote error={error} />
      {kind && url && (
        <>
          {kind === 'image' && <img src={url} alt={`Preview of ${name}`} />}
          {kind === 'audio' && (
            // biome-ignore lint/a11y/useMediaCaption: user content has no captions to give
            <audio controls preload="metadata" src={url} aria-label={`Preview of ${name}`} />
          )}
          {kind === 'video' && (
            // biome-ignore lint/a11y/useMediaCaption: user content has no captions to give
            <video controls preload="metadata" src={url} aria-label={`Preview of ${name}`} />
          )}
          {kind === 'text' && <TextPreview url={url} name={name} size={file.size} />}
          {kind === 'pdf' && (
            <Suspense fallback={<p className="hint">Loading the PDF viewer…</p>}>
              <PdfPreview url={url} name={name} />
            </Suspense>
          )}
        </>
      )}
    </section>
  )
}

/** The first bytes of a text file: a range request, and the reading stops at the limit anyway. */
function TextPreview({ url, name, size }: { url: string; name: string; size: number }) {
  const [text, setText] = useState<string | null>(null)
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    const stop = new AbortController()
    readStart(url, TEXT_PREVIEW_BYTES, stop.signal).then(setText, (failure) => {
      if (!stop.signal.aborted) setError(failure)
    })
    return () => stop.abort()
  }, [url])
  const cut = size > TEXT_PREVIEW_BYTES
  return (
    <>
      <ErrorNote error={error} />
      {text !== null && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard to scroll it
        <section className="text-preview" tabIndex={0} aria-label={`Preview of ${name}`}>
          <pre>{text}</pre>
        </section>
      )}
      {text !== null && cut && (
        <p className="hint">
          The first {formatBytes(TEXT_PREVIEW_BYTES)} of {formatBytes(size)}.
        </p>
      )}
    </>
  )
}

async function readStart(url: string, limit: number, signal: AbortSignal): Promise<string> {
  const response = await fetch(url, { headers: { range: `bytes=0-${limit - 1}` }, signal })
  if (!response.ok) throw new Error(`the preview could not be read (${response.status})`)
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let read = 0
  try {
    while (read < limit) {
      const { done, value } = await reader.read()
      if (done) break
      const chunk = value.subarray(0, limit - read)
      read += chunk.length
      // streaming: a character split between chunks (or by the limit) is not garbled
      text += decoder.decode(chunk, { stream: true })
    }
  } finally {
    // a server that ignored the range sends on: stop it
    void reader.cancel().catch(() => {})
  }
  return text
}
