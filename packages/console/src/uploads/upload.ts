import { Upload } from 'tus-js-client'
import type { Api } from '../api/client'
import { ApiError } from '../api/client'
import type { FileItem, FileList, Network } from '../api/types'

/**
 * The official SDK's threshold: files above 90 MiB go up resumably over tus, in 50 MiB chunks;
 * smaller ones and folders in one multipart request.
 */
export const RESUMABLE_THRESHOLD = 94_371_840
const CHUNK_SIZE = 50 * 1024 * 1024

export interface UploadOptions {
  network: Network
  groupId?: string | undefined
  name?: string | undefined
  keyvalues?: Record<string, string> | undefined
}

export interface UploadHandlers {
  onProgress(sent: number, total: number): void
}

/** A started upload: its result, and ways to stop it. `pause`/`resume` only for resumable ones. */
export interface RunningUpload {
  done: Promise<FileItem>
  cancel(): void
  pause?: () => void
  resume?: () => void
}

/** One file, resumable above the threshold. */
export function uploadFile(api: Api, file: File, options: UploadOptions, handlers: UploadHandlers): RunningUpload {
  if (file.size > RESUMABLE_THRESHOLD) return uploadResumable(api, file, options, handlers)
  return uploadMultipart(api, [{ file, path: file.name }], options, handlers)
}

/**
 * A folder: every file as a `file` part named by its path (`folder/css/style.css`, as the folder
 * picker's `webkitRelativePath` or a dropped folder's entries give it); one CID for all.
 */
export function uploadFolder(
  api: Api,
  folder: string,
  parts: { file: File; path: string }[],
  options: UploadOptions,
  handlers: UploadHandlers,
): RunningUpload {
  return uploadMultipart(api, parts, { ...options, name: options.name || folder }, handlers)
}

/** XMLHttpRequest, not fetch: only it reports how much of a request body has been sent. */
function uploadMultipart(
  api: Api,
  parts: { file: File; path: string }[],
  options: UploadOptions,
  { onProgress }: UploadHandlers,
): RunningUpload {
  const form = new FormData()
  for (const { file, path } of parts) form.append('file', file, path)
  form.append('network', options.network)
  if (options.name) form.append('name', options.name)
  if (options.groupId) form.append('group_id', options.groupId)
  if (options.keyvalues && Object.keys(options.keyvalues).length > 0) {
    form.append('keyvalues', JSON.stringify(options.keyvalues))
  }
  const request = new XMLHttpRequest()
  const done = new Promise<FileItem>((resolve, reject) => {
    request.open('POST', api.url('v3/files'))
    request.setRequestHeader('authorization', `Bearer ${api.token}`)
    request.responseType = 'json'
    // the request also carries the form's part headers: report the share of the files' own bytes
    const bytes = parts.reduce((sum, { file }) => sum + file.size, 0)
    request.upload.onprogress = (event) =>
      onProgress(event.total > 0 ? Math.round((event.loaded / event.total) * bytes) : 0, bytes)
    request.onload = () => {
      const body = request.response as { data?: FileItem; error?: string } | null
      if (request.status >= 200 && request.status < 300 && body?.data) resolve(body.data)
      else reject(new ApiError(request.status, body?.error ?? `upload failed (${request.status})`))
    }
    request.onerror = () => reject(new Error('the connection failed'))
    request.onabort = () => reject(new CancelledError())
    request.send(form)
  })
  return { done, cancel: () => request.abort() }
}

/**
 * tus 1.0, as the SDK's resumable path: `POST /v3/files` with `Upload-Length` and the SDK's
 * metadata keys, then PATCHes; the last answer carries the CID in `upload-cid`. The upload URL is
 * remembered (tus-js-client's local storage of fingerprints), so choosing the same file again
 * after a failure or a reload resumes where the server stopped.
 */
function uploadResumable(api: Api, file: File, options: UploadOptions, { onProgress }: UploadHandlers): RunningUpload {
  let resolve!: (file: FileItem) => void
  let reject!: (error: unknown) => void
  const done = new Promise<FileItem>((yes, no) => {
    resolve = yes
    reject = no
  })
  const metadata: Record<string, string> = {
    filename: options.name || file.name,
    filetype: file.type || 'application/octet-stream',
    network: options.network,
  }
  if (options.groupId) metadata.group_id = options.groupId
  if (options.keyvalues && Object.keys(options.keyvalues).length > 0) {
    metadata.keyvalues = JSON.stringify(options.keyvalues)
  }
  const upload = new Upload(file, {
    endpoint: api.url('v3/files'),
    chunkSize: CHUNK_SIZE,
    metadata,
    headers: { authorization: `Bearer ${api.token}` },
    retryDelays: [0, 1000, 3000, 5000, 10000],
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onProgress,
    onError: reject,
    onSuccess: async ({ lastResponse }) => {
      try {
        const cid = lastResponse.getHeader('upload-cid')
        if (!cid) throw new Error('the server did not say the CID of the upload')
        resolve(await findByCid(api, options.network, cid, metadata.filename!))
      } catch (error) {
        reject(error)
      }
    },
  })
  const start = async () => {
    const previous = await upload.findPreviousUploads()
    if (previous[0]) upload.resumeFromPreviousUpload(previous[0])
    upload.start()
  }
  start().catch(reject)
  return {
    done,
    cancel() {
      // terminate: the server forgets the partial upload and its bytes
      void upload.abort(true).catch(() => {})
      reject(new CancelledError())
    },
    pause: () => void upload.abort(false),
    resume: () => upload.start(),
  }
}

/** The record of an upload that answered only its CID (the SDK does the same lookup). */
async function findByCid(api: Api, network: Network, cid: string, name: string): Promise<FileItem> {
  const { data } = await api.get<{ data: FileList }>(`v3/files/${network}`, { cid, limit: 10 })
  return data.files.find((file) => file.name === name) ?? data.files[0] ?? Promise.reject(new Error(`no file ${cid}`))
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled')
  }
}
