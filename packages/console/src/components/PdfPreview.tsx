import { useEffect, useRef, useState } from 'react'
import { ErrorNote } from './common'

/**
 * The first pages of a PDF drawn by PDF.js, loaded only when a PDF is previewed (its own chunk and
 * worker). PDF.js reads the file by ranges as the pages need them, so a large PDF is never fetched
 * whole. (The browser's own viewer cannot show it: the gateway sandboxes what it serves.)
 */
export function PdfPreview({ url, name }: { url: string; name: string }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const [pages, setPages] = useState(0)
  const [page, setPage] = useState(1)
  const [error, setError] = useState<unknown>(null)
  const [document, setDocument] = useState<import('pdfjs-dist').PDFDocumentProxy | null>(null)

  useEffect(() => {
    let loaded: import('pdfjs-dist').PDFDocumentProxy | undefined
    let cancelled = false
    const load = async () => {
      const pdfjs = await import('pdfjs-dist')
      const worker = await import('pdfjs-dist/build/pdf.worker.min.mjs?url')
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default
      const task = pdfjs.getDocument({
        url,
        // ranges of 64 KiB, fetched as the shown page needs them
        rangeChunkSize: 65_536,
        disableAutoFetch: true,
        disableStream: true,
        // the console's content security policy allows no eval
        isEvalSupported: false,
        verbosity: 0,
      })
      loaded = await task.promise
      if (cancelled) return void loaded.destroy()
      setDocument(loaded)
      setPages(loaded.numPages)
    }
    load().catch(setError)
    return () => {
      cancelled = true
      void loaded?.destroy()
    }
  }, [url])

  useEffect(() => {
    if (!document || !canvas.current) return
    let task: import('pdfjs-dist').RenderTask | undefined
    const draw = async () => {
      const pdfPage = await document.getPage(page)
      const target = canvas.current
      if (!target) return
      const scale = Math.min(2, 800 / pdfPage.getViewport({ scale: 1 }).width)
      const viewport = pdfPage.getViewport({ scale })
      target.width = Math.floor(viewport.width)
      target.height = Math.floor(viewport.height)
      task = pdfPage.render({ canvas: target, viewport })
      await task.promise
    }
    draw().catch((failure) => {
      if ((failure as { name?: string }).name !== 'RenderingCancelledException') setError(failure)
    })
    return () => task?.cancel()
  }, [document, page])

  return (
    <div className="pdf-preview">
      <ErrorNote error={error} />
      <canvas ref={canvas} role="img" aria-label={`Page ${page} of ${name}`} />
      {pages > 0 && (
        <nav className="actions" aria-label="PDF pages">
          <button type="button" onClick={() => setPage(page - 1)} disabled={page <= 1}>
            Previous page
          </button>
          <span aria-live="polite">
            Page {page} of {pages}
          </span>
          <button type="button" onClick={() => setPage(page + 1)} disabled={page >= pages}>
            Next page
          </button>
        </nav>
      )}
    </div>
  )
}
