import type { BlockLocation, CidVersion, ContentKind } from '@pinfold/interface'
import { abortError, PinfoldError, throwIfAborted } from '@pinfold/interface'
import type { Block } from '../content/dag/blocks.js'
import { deleteContentBlobs } from '../content/dag/car-blob.js'
import { importCar } from '../content/dag/import-car.js'
import { type FolderFile, type ImportedFolder, importFolder, reimportFolder } from '../content/unixfs/folder-import.js'
import { storeFileOnePass } from '../content/unixfs/one-pass-file.js'
import { checkContentAllowed, DIRECTORY_MIME_TYPE } from '../mime/allowed-mime-types.js'
import { detectMimeType, SNIFF_BYTES } from '../mime/mime.js'
import type { ServiceContext } from '../service/context.js'
import { checkedHead } from '../streams/checked-head.js'
import type { UploadItem, UploadOptions } from './api.js'

/**
 * The first half of `files.upload`: an upload's bytes put into the blob store (and hashed on the
 * way) before any record exists. Each step either returns a {@link Staged} content or leaves no blob
 * behind; `upload-commit.ts` records what was staged.
 */

export const CAR_MIME_TYPE = 'application/vnd.ipld.car'

/** What staging uses of the service. */
export type StagingSettings = Pick<ServiceContext, 'blobs' | 'records' | 'ids'>

export type FileItem = Extract<UploadItem, { kind: 'file' }>

/** Bytes in the blob store, not yet recorded. {@link discardStaged} removes every blob it holds. */
export interface Staged {
  kind: ContentKind
  blobKey: string
  /** Blob size. */
  blobSize: number
  /** Size reported on the file record: the file's bytes, or the DAG's bytes for `car` contents. */
  size: number
  mimeType: string
  numberOfFiles: number
  defaultName: string
  /** The root for `car` contents; for files, the CIDv1 (other versions are computed from the blob). */
  cidV1: string
  /** A file's CIDv1 DAG inner nodes, stored beside its blob if the record keeps that CID. */
  innerNodes?: Block[] | undefined
  /** Where every block of a `car` content lies in its blob. */
  locations?: BlockLocation[] | undefined
  folder?: ImportedFolder | undefined
  /**
   * The blob belongs to a resumable upload session until a record owns it: a failed commit leaves
   * it for the session's retry, and the session's end deletes it unless a record then owns it.
   */
  keep?: boolean | undefined
  /** Every leaf of the file's CIDv1 DAG is in the block index already (see `StoredFile`). */
  leavesIndexed?: boolean | undefined
}

/**
 * Removes a staged content's blobs and any block entries recorded for them, unless kept: a kept
 * blob's session indexed some of its blocks itself, and removes them with the blob at its end.
 */
export async function discardStaged(ctx: StagingSettings, staged: Staged): Promise<void> {
  if (staged.keep) return
  await deleteContentBlobs(ctx.blobs, staged.blobKey)
  await ctx.records.blocks.deleteBlockLocations(staged.blobKey).catch(() => {}) // else invisible until the orphan sweep
}

/** Links the caller's signal to an internal controller that also stops on our own failures. */
function linked(signal: AbortSignal | undefined) {
  const internal = new AbortController()
  const stop = () => internal.abort(signal?.reason)
  signal?.addEventListener('abort', stop, { once: true })
  return { internal, release: () => signal?.removeEventListener('abort', stop) }
}

/**
 * Streams one file into a fresh blob while computing its CIDv1 from the same bytes. On any
 * failure the blob is removed before the error propagates.
 */
export async function stageFile(
  ctx: StagingSettings & Pick<ServiceContext, 'uploadHashing'>,
  item: FileItem,
  maxBytes: number,
  allowed: readonly string[] | undefined,
  signal: AbortSignal | undefined,
): Promise<Staged> {
  const blobKey = ctx.ids.blobKey()
  const { internal, release } = linked(signal)
  // a signed URL's type list is checked on the first bytes, before any byte is stored
  const content = allowed?.length
    ? checkedHead(item.content, SNIFF_BYTES, (head) =>
        checkContentAllowed(head, item.mimeType, basename(item.path), allowed),
      )
    : item.content
  try {
    const file = await storeFileOnePass(ctx.blobs, blobKey, content, {
      maxBytes,
      controller: internal,
      hashing: ctx.uploadHashing,
    })
    const mimeType = await detectMimeType(file.head, item.mimeType, basename(item.path))
    return {
      kind: 'file',
      blobKey,
      blobSize: file.size,
      size: file.size,
      mimeType,
      numberOfFiles: 1,
      defaultName: basename(item.path).trim() ? basename(item.path) : 'file',
      cidV1: file.cid.toString(),
      innerNodes: file.innerNodes,
    }
  } catch (error) {
    await ctx.blobs.delete(blobKey).catch(() => {})
    throw signal?.aborted ? abortError(signal) : error
  } finally {
    release()
  }
}

/**
 * Imports a folder: `first` and every further file item of `rest` (option items met on the way
 * go to `onOptions`). The DAG is built with CIDv1 options; see {@link finishFolder}.
 */
export async function stageFolder(
  ctx: StagingSettings,
  first: FileItem,
  rest: AsyncIterator<UploadItem>,
  onOptions: (options: Partial<UploadOptions>) => void,
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<Staged> {
  const blobKey = ctx.ids.blobKey()
  const { internal, release } = linked(signal)
  let total = 0
  const limited = (content: AsyncIterable<Uint8Array>) =>
    (async function* () {
      for await (const chunk of content) {
        throwIfAborted(internal.signal)
        total += chunk.length
        if (total > maxBytes)
          throw new PinfoldError('PAYLOAD_TOO_LARGE', `upload exceeds the limit of ${maxBytes} bytes`)
        yield chunk
      }
    })()
  async function* files(): AsyncGenerator<FolderFile> {
    let item: FileItem | undefined = first
    while (item) {
      yield { path: item.path, content: limited(item.content) }
      item = undefined
      for (let next = await rest.next(); !next.done; next = await rest.next()) {
        if (next.value.kind === 'options') onOptions(next.value.options)
        else {
          item = next.value
          break
        }
      }
    }
  }
  try {
    const folder = await importFolder(ctx.blobs, blobKey, files(), 'v1', { signal: internal.signal })
    return folderStaged(blobKey, folder)
  } catch (error) {
    internal.abort(error)
    throw signal?.aborted ? abortError(signal) : error
  } finally {
    release()
  }
}

function folderStaged(blobKey: string, folder: ImportedFolder): Staged {
  return {
    kind: 'car',
    blobKey,
    blobSize: folder.size,
    size: folder.dagSize,
    mimeType: DIRECTORY_MIME_TYPE,
    numberOfFiles: folder.numberOfFiles,
    // a blank directory name is a valid UnixFS name but no record name, as for files
    defaultName: folder.name.trim() ? folder.name : 'folder',
    cidV1: folder.cid.toString(),
    locations: folder.locations,
    folder,
  }
}

/** A folder staged with v1 is re-imported when another CID version was asked for. Owns `staged`. */
export async function finishFolder(
  ctx: StagingSettings,
  staged: Staged,
  version: CidVersion,
  signal: AbortSignal | undefined,
): Promise<Staged> {
  if (version === 'v1' || !staged.folder) return staged
  try {
    const blobKey = ctx.ids.blobKey()
    const folder = await reimportFolder(ctx.blobs, { key: staged.blobKey, folder: staged.folder }, blobKey, version, {
      signal,
    })
    return folderStaged(blobKey, folder)
  } finally {
    await discardStaged(ctx, staged)
  }
}

/** Turns a staged single file that is a CAR into a validated `car` content. Owns `staged`. */
export async function finishCar(
  ctx: StagingSettings,
  staged: Staged,
  signal: AbortSignal | undefined,
): Promise<Staged> {
  try {
    const blobKey = ctx.ids.blobKey()
    const car = await importCar(ctx.blobs, blobKey, await ctx.blobs.get(staged.blobKey, { signal }), { signal })
    return {
      kind: 'car',
      blobKey,
      blobSize: car.size,
      size: car.dagSize,
      mimeType: CAR_MIME_TYPE,
      numberOfFiles: 1,
      defaultName: staged.defaultName,
      cidV1: car.root.toString(),
      locations: car.locations,
    }
  } finally {
    await discardStaged(ctx, staged)
  }
}

export function basename(path: string): string {
  return path.split('/').filter(Boolean).at(-1) ?? ''
}
