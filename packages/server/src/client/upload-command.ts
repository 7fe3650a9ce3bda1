import { createReadStream, openAsBlob } from 'node:fs'
import { mkdir, readdir, stat } from 'node:fs/promises'
import { basename, dirname, join, relative, sep } from 'node:path'
import * as tus from 'tus-js-client'
import type { ApiClient } from './api-client.js'
import { CliError } from './cli-error.js'
import { formatBytes } from './format.js'
import type { Progress } from './progress.js'

/** What `POST /v3/files` answers in `data` (the fields the CLI prints). */
export interface UploadedFile {
  id: string
  cid: string
  name: string
  size: number
  number_of_files: number
  network: string
}

export interface UploadOptions {
  network: 'public' | 'private'
  name?: string | undefined
  groupId?: string | undefined
  keyvalues?: Record<string, string> | undefined
  cidVersion?: 'v0' | 'v1' | undefined
  /** `true` always takes the resumable path, `false` never; undefined decides by size as the SDK does. */
  resumable?: boolean | undefined
  /** Where resumable uploads remember their server URLs between runs. */
  resumeStatePath: string
  signal: AbortSignal
  /** `from`: bytes an earlier run already sent (a resumed upload). */
  progress(label: string, totalBytes: number, from?: number): Progress
  /** A line for the user (stderr): where a resumed upload starts, and why. */
  notice(text: string): void
}

/**
 * tus-js-client's Node build exports a file-backed URL store that its type declarations (shared
 * with the browser build) do not mention.
 */
const { FileUrlStorage } = tus as unknown as { FileUrlStorage: new (path: string) => tus.UrlStorage }

/** Above this, a single file goes through tus in 50 MiB PATCHes: the official SDK's threshold. */
export const RESUMABLE_ABOVE_BYTES = 94_371_840
const PATCH_BYTES = 50 * 1024 * 1024

/** Uploads a file or a whole directory; answers the stored record. */
export async function uploadPath(api: ApiClient, path: string, options: UploadOptions): Promise<UploadedFile> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file or directory' : error.message}`)
  })
  if (info.isDirectory()) return uploadDirectory(api, path, options)
  if (!info.isFile()) throw new CliError(`${path} is neither a file nor a directory`)
  const resumable = options.resumable ?? info.size > RESUMABLE_ABOVE_BYTES
  return resumable
    ? uploadResumable(api, path, info.size, options)
    : uploadFiles(api, [{ path, name: basename(path), size: info.size }], options)
}

interface LocalFile {
  path: string
  /** Its name in the upload: the file name, or `<folder>/<path inside it>` for a folder. */
  name: string
  size: number
}

async function uploadDirectory(api: ApiClient, dir: string, options: UploadOptions): Promise<UploadedFile> {
  const root = basename(dir.replace(/[\\/]+$/, '')) || 'folder'
  const files: LocalFile[] = []
  for (const path of await filesUnder(dir)) {
    files.push({ path, name: `${root}/${relative(dir, path).split(sep).join('/')}`, size: (await stat(path)).size })
  }
  if (files.length === 0) throw new CliError(`${dir} holds no files`)
  return uploadFiles(api, files, { ...options, name: options.name ?? root })
}

/** Regular files below `dir`, in a stable order; symbolic links are not followed (they could leave the folder). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const found: string[] = []
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...(await filesUnder(path)))
    else if (entry.isFile()) found.push(path)
  }
  return found
}

/**
 * One multipart request. The form is encoded by the runtime's own `FormData` serialiser and read
 * from disk as it is sent (`openAsBlob` is lazy); counting the encoded stream on its way out is
 * what drives the progress.
 */
async function uploadFiles(api: ApiClient, files: readonly LocalFile[], options: UploadOptions): Promise<UploadedFile> {
  const form = new FormData()
  form.append('network', options.network)
  form.append('name', options.name ?? files[0]!.name)
  if (options.groupId) form.append('group_id', options.groupId)
  if (options.keyvalues) form.append('keyvalues', JSON.stringify(options.keyvalues))
  if (options.cidVersion) form.append('cid_version', options.cidVersion)
  for (const file of files) form.append('file', await openAsBlob(file.path), file.name)

  const encoded = new Request('http://form.invalid/', { method: 'POST', body: form })
  const total = files.reduce((sum, file) => sum + file.size, 0)
  const progress = options.progress(options.name ?? files[0]!.name, total)
  const counted = encoded.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        progress.advance(chunk.byteLength)
        controller.enqueue(chunk)
      },
    }),
  )
  const res = await api.request('/v3/files', {
    method: 'POST',
    headers: { 'content-type': encoded.headers.get('content-type')! },
    body: counted,
    duplex: 'half',
    signal: options.signal,
  } as RequestInit)
  const { data } = (await res.json()) as { data: UploadedFile }
  progress.done()
  return data
}

/**
 * tus 1.0 in 50 MiB PATCHes, as the SDK sends large files. The upload's URL is kept in a state
 * file, so the same command run again after an interruption resumes where the server stopped.
 */
async function uploadResumable(
  api: ApiClient,
  path: string,
  size: number,
  options: UploadOptions,
): Promise<UploadedFile> {
  await mkdir(dirname(options.resumeStatePath), { recursive: true })
  const name = options.name ?? basename(path)
  const metadata: Record<string, string> = { filename: name, filetype: '', network: options.network }
  if (options.groupId) metadata.group_id = options.groupId
  if (options.keyvalues) metadata.keyvalues = JSON.stringify(options.keyvalues)
  if (options.cidVersion) metadata.cid_version = options.cidVersion
  const fingerprintStore = new FileUrlStorage(options.resumeStatePath)
  let reported = 0
  let fileId: string | undefined
  let progress: Progress | undefined

  await new Promise<void>((resolve, reject) => {
    const upload = new tus.Upload(createReadStream(path), {
      endpoint: `${api.connection.url}/v3/files`,
      uploadSize: size,
      chunkSize: PATCH_BYTES,
      metadata,
      headers: { authorization: `Bearer ${api.connection.token}` },
      urlStorage: fingerprintStore,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      retryDelays: [0, 1000, 3000, 5000],
      onProgress(sent) {
        progress ??= options.progress(name, size)
        progress.advance(sent - reported)
        reported = sent
      },
      onAfterResponse(_req, res) {
        fileId = res.getHeader('upload-file-id') ?? fileId
      },
      onSuccess: () => resolve(),
      onError: (error) => reject(new CliError(`resumable upload failed: ${describeTusError(error)}`)),
    })
    options.signal.addEventListener(
      'abort',
      () => {
        // abort() without terminating: the server keeps what it has, the state file the URL
        void upload
          .abort(false)
          .then(() => reject(new CliError('interrupted: run the same command again to resume', 1)))
      },
      { once: true },
    )
    void upload.findPreviousUploads().then(async (previous) => {
      const earlier = previous[0]
      if (earlier?.uploadUrl) {
        const offset = await serverOffset(api, earlier.uploadUrl)
        if (offset !== undefined) {
          reported = offset
          progress = options.progress(name, size, offset)
          options.notice(
            `${name}: resuming at ${formatBytes(offset)} of ${formatBytes(size)}: the server kept that much from ` +
              `the run of ${earlier.creationTime} (remembered in ${options.resumeStatePath}); an interrupted ` +
              `PATCH of up to ${formatBytes(PATCH_BYTES)} is sent again, as the server keeps whole PATCHes only\n`,
          )
        }
        upload.resumeFromPreviousUpload(earlier)
      }
      upload.start()
    }, reject)
  })
  ;(progress ?? options.progress(name, size)).done()
  if (!fileId) throw new CliError('the server completed the upload without naming the stored file (no Upload-File-Id)')
  const { data } = await api.json<{ data: UploadedFile }>(`/v3/files/${options.network}/${encodeURIComponent(fileId)}`)
  return data
}

/** How many bytes the server holds of an earlier upload (tus `HEAD`); undefined when it forgot it. */
async function serverOffset(api: ApiClient, uploadUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(uploadUrl, {
      method: 'HEAD',
      headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${api.connection.token}` },
    })
    const offset = Number(res.headers.get('upload-offset'))
    return res.ok && Number.isSafeInteger(offset) ? offset : undefined
  } catch {
    return undefined
  }
}

function describeTusError(error: Error): string {
  const res = (error as { originalResponse?: tus.HttpResponse | null }).originalResponse
  const body = res?.getBody()
  if (res && body) {
    try {
      const parsed = JSON.parse(body) as { error?: unknown }
      if (typeof parsed.error === 'string') return `${res.getStatus()} ${parsed.error}`
    } catch {
      // not JSON
    }
  }
  return error.message
}
