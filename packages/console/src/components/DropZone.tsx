import { type DragEvent, type ReactNode, useId, useState } from 'react'
import { type Dropped, readDrop } from '../uploads/drop'
import './fileui.css'

/**
 * Files and folders dragged from the desktop onto the zone. The pickers inside it are the way to
 * the same uploads by keyboard or on a touch screen, where nothing can be dragged.
 */
export function DropZone({
  onDrop,
  onError,
  children,
}: {
  onDrop(dropped: Dropped[]): void
  onError(error: unknown): void
  children: ReactNode
}) {
  const [over, setOver] = useState(false)
  const hint = useId()
  const accepts = (event: DragEvent) => event.dataTransfer.types.includes('Files')
  return (
    <section
      className={over ? 'dropzone over' : 'dropzone'}
      aria-label="Drop files or folders to upload"
      aria-describedby={hint}
      onDragEnter={(event) => {
        if (!accepts(event)) return
        event.preventDefault()
        setOver(true)
      }}
      onDragOver={(event) => {
        if (!accepts(event)) return
        // without this the browser opens the dropped file instead
        event.preventDefault()
        event.dataTransfer.dropEffect = 'copy'
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false)
      }}
      onDrop={(event) => {
        event.preventDefault()
        setOver(false)
        readDrop(event.dataTransfer).then(onDrop, onError)
      }}
    >
      <p id={hint} className="dropzone-hint">
        Drag files or folders here (a folder keeps its inner paths and gets one CID), or choose them:
      </p>
      {children}
    </section>
  )
}
