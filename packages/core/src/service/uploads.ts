import type { Actor, BlockLocation, CidVersion, ContentKind, CreatedFile, Network } from '@pinfold/interface'
import { abortError, hasCode, invalid, PinfoldError, throwIfAborted } from '@pinfold/interface'
import { CID } from 'multiformats/cid'
import type { Block } from '../dag/blocks.js'
import { deleteContentBlobs } from '../dag/car-blob.js'
import { fileBlockLocations } from '../dag/file-blocks.js'
import { importFileDag, sidecarLocations, writeFileDagIndex } from '../dag/file-dag-index.js'
import { importCar } from '../dag/import-car.js'
import { detectMimeType, SNIFF_BYTES } from '../mime.js'
import { checkedHead } from '../streams/checked-head.js'
import { checkContentAllowed, checkMimeType, DIRECTORY_MIME_TYPE } from './allowed-mime-types.js'
import type { ServiceContext } from './context.js'
import type {
  FileOperations,
  UploadCallOptions,
  UploadConstraints,
  UploadItem,
  UploadOptions,
  UploadResult,
} from './file-service-api.js'
import { type FolderFile, type ImportedFolder, importFolder, isFolderPath, reimportFolder } from './folder-upload.js'
import { storeFileOnePass } from './one-pass-file.js'
import { validateCidVersion, validateExpiry, validateKeyvalues, validateName, validateNetwork } from './validate.js'

/** Bytes in the blob store, not yet recorded. `discard` removes every blob it holds. */
interface Staged {
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
  /** Every leaf of the file's CIDv1 DAG is in the block index already (see {@link StoredFile}). */
  leavesIndexed?: boolean | undefined
}

/** A file whose bytes are stored already (a resumable upload's assembled blob), with its CIDv1 DAG. */
export interface StoredFile {
  blobKey: string
  size: number
  /** Its first {@link SNIFF_BYTES} bytes, for type sniffing. */
  head: Uint8Array
  path: string
  mimeType?: string | undefined
  cidV1: string
  innerNodes: Block[]
  /**
   * Whether the session wrote the block-index entries of every leaf (as its PATCHes came): if the
   * file is recorded under this CIDv1, only its inner nodes are left to index.
   */
  leavesIndexed?: boolean | undefined
}

export interface Uploads extends Pick<FileOperations, 'upload'> {
  /**
   * Records a {@link StoredFile} exactly as `upload` records a file it staged itself: the same
   * options, constraints, CAR handling and dedupe. The blob is never deleted here unless another
   * content made it redundant (see `Staged.keep`). The record's id is `fileId`; a commit that finds
   * it taken (the retry of one recorded already) answers that record and makes no other.
   */
  commitStored(
    fileId: string,
    actor: Actor,
    file: StoredFile,
    given: Partial<UploadOptions>,
    options: { constraints?: UploadConstraints | undefined; signal?: AbortSignal | undefined },
  ): Promise<UploadResult>

  /** `upload`, recording the file under `fileId` as {@link commitStored} does. */
  uploadAs(
    fileId: string,
    actor: Actor,
    items: AsyncIterable<UploadItem>,
    options: UploadCallOptions,
  ): Promise<UploadResult>
}

export const CAR_MIME_TYPE = 'application/vnd.ipld.car'

export function createUploads(ctx: ServiceContext): Uploads {
  /**
   * Removes a staged content's blobs and any block entries recorded for them, unless kept: a kept
   * blob's session indexed some of its blocks itself, and removes them with the blob at its end.
   */
  const discard = async (staged: Staged) => {
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
  async function stage(
    item: Extract<UploadItem, { kind: 'file' }>,
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
      const file = await storeFileOnePass(ctx.blobs, blobKey, content, { maxBytes, controller: internal })
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
  async function stageFolder(
    first: Extract<UploadItem, { kind: 'file' }>,
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
      let item: Extract<UploadItem, { kind: 'file' }> | undefined = first
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
  async function finishFolder(staged: Staged, version: CidVersion, signal: AbortSignal | undefined): Promise<Staged> {
    if (version === 'v1' || !staged.folder) return staged
    try {
      const blobKey = ctx.ids.blobKey()
      const folder = await reimportFolder(ctx.blobs, { key: staged.blobKey, folder: staged.folder }, blobKey, version, {
        signal,
      })
      return folderStaged(blobKey, folder)
    } finally {
      await discard(staged)
    }
  }

  /** Turns a staged single file that is a CAR into a validated `car` content. Owns `staged`. */
  async function finishCar(staged: Staged, signal: AbortSignal | undefined): Promise<Staged> {
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
      await discard(staged)
    }
  }

  /** The content's CID under the requested profile, and (for files) its DAG's inner nodes. */
  async function dagOf(staged: Staged, version: CidVersion, signal: AbortSignal | undefined) {
    if (staged.kind === 'car' || version === 'v1') return { cid: staged.cidV1, innerNodes: staged.innerNodes ?? [] }
    // Other profiles are rare and the SDK sends `cid_version` after the bytes, so they are computed from the blob.
    const { cid, innerNodes } = await importFileDag(await ctx.blobs.get(staged.blobKey, { signal }), version)
    return { cid: cid.toString(), innerNodes }
  }

  /**
   * Records where every block of the staged content lies (a file's inner nodes go to its sidecar
   * first). Done before the content record commits; the entries count only once it has.
   */
  async function indexBlocks(staged: Staged, cid: string, innerNodes: Block[], signal: AbortSignal | undefined) {
    const root = CID.parse(cid)
    let locations: BlockLocation[]
    if (staged.kind === 'car') {
      locations = (staged.locations ?? []).map((location) => ({
        ...location,
        isRoot: Buffer.compare(Buffer.from(location.multihash), Buffer.from(root.multihash.bytes)) === 0,
      }))
    } else {
      const sidecar = innerNodes.length
        ? await writeFileDagIndex(ctx.blobs, staged.blobKey, root, innerNodes, { signal })
        : []
      locations =
        // a file of one leaf is only its root (an empty file's never was a leaf of any PATCH)
        staged.leavesIndexed && cid === staged.cidV1 && sidecar.length > 0
          ? sidecarLocations(root, sidecar)
          : fileBlockLocations(root, sidecar, staged.blobSize)
    }
    await ctx.records.blocks.putBlockLocations(staged.blobKey, locations, { signal })
  }

  /**
   * Records the staged content, under `fileId` when given (else a new id). Owns the staged blobs
   * from here on: deletes them unless a record uses them.
   */
  async function commit(
    actor: Actor,
    staged: Staged,
    options: UploadOptions,
    signal: AbortSignal | undefined,
    fileId: string | undefined,
  ) {
    let cid: string | undefined
    try {
      const dag = await dagOf(staged, options.cidVersion, signal)
      cid = dag.cid
      await indexBlocks(staged, cid, dag.innerNodes, signal)
      throwIfAborted(signal)
      // no signal from here: a commit aborted midway could have happened without its caller knowing
      const created = await ctx.records.files
        .createFile(
          {
            id: fileId ?? ctx.ids.recordId(),
            tenantId: actor.tenantId,
            userId: actor.userId,
            network: options.network,
            name: options.name,
            cid,
            size: staged.size,
            numberOfFiles: staged.numberOfFiles,
            mimeType: staged.mimeType,
            groupId: options.groupId,
            keyvalues: options.keyvalues,
            createdAt: ctx.clock.now(),
            expiresAt: options.expiresAt,
          },
          {
            cid,
            blobKey: staged.blobKey,
            size: staged.blobSize,
            kind: staged.kind,
            profile: staged.kind === 'file' ? options.cidVersion : null,
          },
        )
        .catch((error: unknown) => recordedBefore(error, actor, options.network, fileId))
      if (created.content.blobKey !== staged.blobKey) {
        // Another upload of the same CID already owns stored bytes: ours are redundant. A failed
        // delete only leaves an unreferenced blob for the orphan sweep; the upload itself succeeded.
        await discard(staged)
      }
      return { file: created.file, isDuplicate: created.isDuplicate }
    } catch (error) {
      if (!(cid && (await blobIsReferenced(cid, staged.blobKey)))) await discard(staged)
      throw error
    }
  }

  /**
   * A commit under a given file id that finds the id taken is the retry of one recorded already
   * (the process that made the record died before answering, or lost its claim while it worked):
   * it answers that record, which the tenant held before this call (a duplicate), and makes no other.
   */
  async function recordedBefore(
    error: unknown,
    actor: Actor,
    network: Network,
    fileId: string | undefined,
  ): Promise<CreatedFile> {
    if (fileId === undefined || !hasCode(error, 'CONFLICT')) throw error
    const earlier = await ctx.records.files.getFile(actor.tenantId, network, fileId)
    const content = earlier && (await ctx.records.files.getContent(earlier.cid))
    if (!content) throw error
    return { file: earlier, isDuplicate: true, content }
  }

  /**
   * After an ambiguous failure (the database committed but the answer was lost) the blob may
   * already back a record; deleting it then would leave a record without bytes.
   */
  async function blobIsReferenced(cid: string, blobKey: string): Promise<boolean> {
    try {
      return (await ctx.records.files.getContent(cid))?.blobKey === blobKey
    } catch {
      return true // cannot tell: keeping an orphan is recoverable, losing bytes is not
    }
  }

  function resolveOptions(given: Partial<UploadOptions>, staged: Staged): UploadOptions {
    return {
      network: validateNetwork(given.network ?? 'private'),
      name: validateName(given.name ?? staged.defaultName),
      groupId: given.groupId ?? null,
      keyvalues: validateKeyvalues(given.keyvalues ?? {}),
      cidVersion: validateCidVersion(given.cidVersion ?? 'v1'),
      expiresAt: validateExpiry(given.expiresAt ?? null, ctx.clock.now()),
      car: given.car ?? false,
    }
  }

  return {
    async commitStored(fileId, actor, file, given, { constraints, signal }) {
      const name = basename(file.path)
      const allowed = constraints?.allowMimeTypes
      if (allowed?.length) await checkContentAllowed(file.head, file.mimeType, name, allowed)
      const staged: Staged = {
        kind: 'file',
        blobKey: file.blobKey,
        blobSize: file.size,
        size: file.size,
        mimeType: await detectMimeType(file.head, file.mimeType, name),
        numberOfFiles: 1,
        defaultName: name.trim() ? name : 'file',
        cidV1: file.cidV1,
        innerNodes: file.innerNodes,
        keep: true,
        leavesIndexed: file.leavesIndexed,
      }
      const resolved = resolveOptions({ ...given, ...constraints?.fixed }, staged)
      if (resolved.car && resolved.network !== 'public')
        throw invalid('CAR uploads are supported only on the public network')
      checkMimeType(staged.mimeType, allowed)
      const finished = resolved.car ? await finishCar(staged, signal) : staged
      return await commit(actor, finished, resolved, signal, fileId)
    },

    upload: (actor, items, options = {}) => uploadItems(actor, items, options, undefined),

    uploadAs: (fileId, actor, items, options) => uploadItems(actor, items, options, fileId),
  }

  async function uploadItems(
    actor: Actor,
    items: AsyncIterable<UploadItem>,
    options: UploadCallOptions,
    fileId: string | undefined,
  ): Promise<UploadResult> {
    const { signal, constraints } = options
    const maxBytes = Math.min(ctx.maxUploadBytes, constraints?.maxBytes ?? Number.POSITIVE_INFINITY)
    let given: Partial<UploadOptions> = {}
    const merge = (more: Partial<UploadOptions>) => {
      given = { ...given, ...more }
    }
    let staged: Staged | undefined
    const iterator = items[Symbol.asyncIterator]()
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        throwIfAborted(signal)
        const item = next.value
        if (item.kind === 'options') {
          merge(item.options)
          continue
        }
        if (staged) {
          throw invalid(
            staged.folder
              ? 'More than one file and/or directory was provided for pinning'
              : 'only one file may be uploaded per request; send a folder as files whose names share one directory',
          )
        }
        staged = isFolderPath(item.path)
          ? await stageFolder(item, iterator, merge, maxBytes, signal)
          : await stage(item, maxBytes, constraints?.allowMimeTypes, signal)
      }
      if (!staged) throw invalid('file is required')
      const resolved = resolveOptions({ ...given, ...constraints?.fixed }, staged)
      if (resolved.car) {
        if (staged.folder) throw invalid('a CAR upload takes one CAR file, not a folder')
        if (resolved.network !== 'public') throw invalid('CAR uploads are supported only on the public network')
      }
      checkMimeType(staged.mimeType, constraints?.allowMimeTypes)
      const current = staged
      staged = undefined // the finishing steps and commit own the blobs from here on
      const finished = resolved.car
        ? await finishCar(current, signal)
        : await finishFolder(current, resolved.cidVersion, signal)
      return await commit(actor, finished, resolved, signal, fileId)
    } catch (error) {
      if (staged) await discard(staged)
      await iterator.return?.().catch(() => {})
      throw signal?.aborted && !(error instanceof PinfoldError) ? abortError(signal) : error
    }
  }
}

function basename(path: string): string {
  return path.split('/').filter(Boolean).at(-1) ?? ''
}
