import { useCallback, useRef, useState } from 'react'
import { type Api, messageOf } from '../api/client'
import type { FileItem, Network } from '../api/types'
import type { Dropped } from './drop'
import { createRateMeter } from './rate'
import {
  CancelledError,
  RESUMABLE_THRESHOLD,
  type RunningUpload,
  type UploadOptions,
  uploadFile,
  uploadFolder,
} from './upload'

export type UploadState = 'waiting' | 'uploading' | 'paused' | 'done' | 'failed' | 'cancelled'

/** One file or folder of the queue, as its row shows it. */
export interface QueuedUpload {
  id: number
  label: string
  detail: string
  /** Where it goes, for the row's "Show in files". */
  network: Network
  total: number
  sent: number
  bytesPerSecond: number
  state: UploadState
  resumable: boolean
  error?: string
  result?: FileItem
}

export const ended = (item: QueuedUpload) =>
  item.state === 'done' || item.state === 'failed' || item.state === 'cancelled'

/** Uploads running at once; the rest wait their turn. */
const PARALLEL = 3

let nextId = 1

/**
 * The uploads of one view (the upload view, or the file list files are dropped on): a queue that
 * runs {@link PARALLEL} at once, each with its progress, rate, pause and resume (tus) and cancel.
 * `onFinished` hears of each upload that ended well, so a list can show its new file.
 */
export function useUploadQueue(api: Api, onFinished?: (file: FileItem) => void) {
  const [items, setItems] = useState<QueuedUpload[]>([])
  const running = useRef(new Map<number, RunningUpload>())
  const waiting = useRef<{ id: number; start: () => RunningUpload }[]>([])
  const finished = useRef(onFinished)
  finished.current = onFinished

  const patch = useCallback((id: number, change: Partial<QueuedUpload>) => {
    setItems((all) => all.map((item) => (item.id === id ? { ...item, ...change } : item)))
  }, [])

  const pump = useCallback(() => {
    while (running.current.size < PARALLEL && waiting.current.length > 0) {
      const { id, start } = waiting.current.shift()!
      const upload = start()
      running.current.set(id, upload)
      patch(id, { state: 'uploading' })
      upload.done
        .then(
          (result) => {
            patch(id, { state: 'done', result, bytesPerSecond: 0 })
            finished.current?.(result)
          },
          (failure) =>
            patch(
              id,
              failure instanceof CancelledError
                ? { state: 'cancelled' }
                : { state: 'failed', error: messageOf(failure) },
            ),
        )
        .finally(() => {
          running.current.delete(id)
          pump()
        })
    }
  }, [patch])

  const enqueue = (
    label: string,
    detail: string,
    total: number,
    resumable: boolean,
    network: Network,
    begin: (h: { onProgress(sent: number, total: number): void }) => RunningUpload,
  ) => {
    const id = nextId++
    const meter = createRateMeter()
    setItems((all) => [
      ...all,
      { id, label, detail, network, total, sent: 0, bytesPerSecond: 0, state: 'waiting', resumable },
    ])
    waiting.current.push({
      id,
      start: () => begin({ onProgress: (sent, size) => patch(id, { sent, total: size, ...meter.sample(sent) }) }),
    })
  }

  const queueFiles = (files: File[], options: UploadOptions) => {
    for (const file of files) {
      const resumable = file.size > RESUMABLE_THRESHOLD
      // a custom name applies to a single file only: several files keep their own
      const own = files.length === 1 ? options : { ...options, name: undefined }
      enqueue(file.name, resumable ? 'resumable (tus)' : 'file', file.size, resumable, options.network, (handlers) =>
        uploadFile(api, file, own, handlers),
      )
    }
  }

  const queueFolder = (folder: string, parts: { file: File; path: string }[], options: UploadOptions) => {
    const total = parts.reduce((sum, { file }) => sum + file.size, 0)
    enqueue(folder, `folder of ${parts.length} files`, total, false, options.network, (handlers) =>
      uploadFolder(api, folder, parts, options, handlers),
    )
  }

  return {
    items,
    /** Files, each its own upload. */
    addFiles(files: File[], options: UploadOptions) {
      queueFiles(files, options)
      pump()
    },
    /** A folder: one upload, one CID, the paths below it kept. */
    addFolder(folder: string, parts: { file: File; path: string }[], options: UploadOptions) {
      queueFolder(folder, parts, options)
      pump()
    },
    /** What a drop held: its loose files and each folder. */
    addDropped(dropped: Dropped[], options: UploadOptions) {
      queueFiles(
        dropped.flatMap((item) => (item.kind === 'file' ? [item.file] : [])),
        options,
      )
      for (const item of dropped) if (item.kind === 'folder') queueFolder(item.name, item.parts, options)
      pump()
    },
    /** Takes the ended uploads (done, failed, cancelled) off the list. */
    clearEnded() {
      setItems((all) => all.filter((item) => !ended(item)))
    },
    cancel(id: number) {
      const upload = running.current.get(id)
      if (upload) return upload.cancel()
      waiting.current = waiting.current.filter((entry) => entry.id !== id)
      patch(id, { state: 'cancelled' })
    },
    pause(id: number) {
      running.current.get(id)?.pause?.()
      patch(id, { state: 'paused', bytesPerSecond: 0 })
    },
    resume(id: number) {
      running.current.get(id)?.resume?.()
      patch(id, { state: 'uploading' })
    },
  }
}

export type UploadQueue = ReturnType<typeof useUploadQueue>
