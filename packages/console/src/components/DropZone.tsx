import { type DragEvent, type ReactNode, useId, useState } from 'react'
import { type Dropped, readDrop } from '../uploads/drop'
import './fileui.css'

/**
 * What makes an element a drop target for files and folders from the desktop: its drag handlers,
 * and whether something droppable is over it (to show). Drags of anything else (text, a link) are
 * left to the browser.
 */
export function useFileDrop(onDrop: (dropped: Dropped[]) => void, onError: (error: unknown) => void) {
  const [over, setOver] = useState(false)
  const accepts = (event: DragEvent) => event.dataTransfer.types.includes('Files')
  return {
    over,
    handlers: {
      onDragEnter(event: DragEvent) {
        if (!accepts(event)) return
        event.preventDefault()
        setOver(true)
      },
      onDragOver(event: DragEvent) {
        if (!accepts(event)) return
        // without this the browser opens the dropped file instead
        event.preventDefault()
        event.dataTransfer.dropEffect = 'copy'
      },
      onDragLeave(event: DragEvent) {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false)
      },
      onDrop(event: DragEvent) {
        if (!accepts(event)) return
        event.preventDefault()
        setOver(false)
        readDrop(event.dataTransfer).then(onDrop, onError)
      },
    },
  }
}

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
  const { over, handlers } = useFileDrop(onDrop, onError)
  const hint = useId()
  return (
    <section
      className={over ? 'dropzone over' : 'dropzone'}
      aria-label="Drop files or folders to upload"
      aria-describedby={hint}
      {...handlers}
    >
      <p id={hint} className="dropzone-hint">
        Drag files or folders here (a folder keeps its inner paths and gets one CID), or choose them:
      </p>
      {children}
    </section>
  )
}
