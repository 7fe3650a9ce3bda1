import type { Actor } from '@pinfold/interface'
import { abortError, invalid, isPinfoldError, throwIfAborted } from '@pinfold/interface'
import type { Block } from '../content/dag/blocks.js'
import { isFolderPath } from '../content/unixfs/folder-import.js'
import { checkContentAllowed, checkMimeType } from '../mime/allowed-mime-types.js'
import { detectMimeType, type SNIFF_BYTES } from '../mime/mime.js'
import { admitFile, type FileAdmission, fileQuotaOf } from '../quotas/admission.js'
import type { ServiceContext } from '../service/context.js'
import type {
  FileOperations,
  UploadCallOptions,
  UploadConstraints,
  UploadItem,
  UploadOptions,
  UploadResult,
} from './api.js'
import { commitStaged } from './upload-commit.js'
import { resolveUploadOptions } from './upload-options.js'
import {
  basename,
  discardStaged,
  finishCar,
  finishFolder,
  type Staged,
  stageFile,
  stageFolder,
} from './upload-staging.js'

/**
 * `files.upload`: an upload request's items read in arrival order, its one file (or folder) staged
 * into the blob store (`upload-staging.ts`), its options resolved once every item has arrived
 * (`upload-options.ts`), a CAR or another CID version finished from the staged blob, and the
 * content recorded (`upload-commit.ts`). Resumable uploads record their assembled blob through the
 * same steps (`commitStored`).
 */

/** What an upload uses of the service. */
export type FileUploadSettings = Pick<
  ServiceContext,
  'blobs' | 'records' | 'ids' | 'clock' | 'maxUploadBytes' | 'quotaDefaults' | 'deny' | 'uploadHashing'
>

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

export interface FileUpload extends Pick<FileOperations, 'upload'> {
  /**
   * Records a {@link StoredFile} exactly as `upload` records a file it staged itself: the same
   * options, constraints, CAR handling and dedupe. The blob is never deleted here unless another
   * content made it redundant (see `Staged.keep` in `upload-staging.ts`). The record's id is
   * `fileId`; a commit that finds it taken (the retry of one recorded already) answers that record
   * and makes no other.
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

export function createFileUpload(ctx: FileUploadSettings): FileUpload {
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
      const resolved = resolveUploadOptions({ ...given, ...constraints?.fixed }, staged, ctx.clock.now())
      checkMimeType(staged.mimeType, allowed)
      const finished = resolved.car ? await finishCar(ctx, staged, signal) : staged
      // its bytes are stored already (the session was admitted by its length): only the record is checked
      const quota = await fileQuotaOf(ctx, actor.tenantId, { signal })
      return await commitStaged(ctx, actor, finished, resolved, signal, fileId, quota)
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
    // the tenant's limits are read before any byte is stored; the stream is cut at what they leave
    // (a resumable upload's completion, `fileId`, streams bytes stored already: only its record is checked)
    const admission: FileAdmission =
      fileId === undefined
        ? await admitFile(ctx, actor.tenantId, undefined, { signal })
        : {
            maxBytes: Number.POSITIVE_INFINITY,
            quota: await fileQuotaOf(ctx, actor.tenantId, { signal }),
            explain: (e) => e,
          }
    const maxBytes = Math.min(ctx.maxUploadBytes, constraints?.maxBytes ?? Number.POSITIVE_INFINITY, admission.maxBytes)
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
          ? await stageFolder(ctx, item, iterator, merge, maxBytes, signal)
          : await stageFile(ctx, item, maxBytes, constraints?.allowMimeTypes, signal)
      }
      if (!staged) throw invalid('file is required')
      const resolved = resolveUploadOptions({ ...given, ...constraints?.fixed }, staged, ctx.clock.now())
      checkMimeType(staged.mimeType, constraints?.allowMimeTypes)
      const current = staged
      staged = undefined // the finishing steps and commit own the blobs from here on
      const finished = resolved.car
        ? await finishCar(ctx, current, signal)
        : await finishFolder(ctx, current, resolved.cidVersion, signal)
      return await commitStaged(ctx, actor, finished, resolved, signal, fileId, admission.quota)
    } catch (error) {
      if (staged) await discardStaged(ctx, staged)
      await iterator.return?.().catch(() => {})
      throw signal?.aborted && !isPinfoldError(error) ? abortError(signal) : admission.explain(error, maxBytes)
    }
  }
}
