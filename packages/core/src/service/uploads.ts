import { abortError, invalid, PinfoldError, throwIfAborted } from '../errors.js'
import { detectMimeType, SNIFF_BYTES } from '../mime.js'
import type { Actor, FileRecord, KeyValues, Network } from '../model.js'
import { fork } from '../streams/fork.js'
import { meter } from '../streams/meter.js'
import { computeFileCid } from '../unixfs/compute-cid.js'
import type { CidVersion } from '../unixfs/profiles.js'
import type { ServiceContext } from './context.js'
import { validateExpiry, validateKeyvalues, validateName } from './validate.js'

/** Options of an upload; each may arrive before or after the file's bytes (multipart order varies). */
export interface UploadOptions {
  /** Defaults to `private`, as in Pinata's API. */
  network: Network
  name: string
  groupId: string | null
  keyvalues: KeyValues
  cidVersion: CidVersion
  expiresAt: Date | null
}

/**
 * One piece of an upload request, in arrival order. A file's `content` must be read to its end
 * (or abandoned by throwing) before the next item is requested — exactly how a multipart body
 * behaves — so the whole upload streams with bounded memory.
 */
export type UploadItem =
  | { kind: 'file'; path: string; mimeType?: string | undefined; content: AsyncIterable<Uint8Array> }
  | { kind: 'options'; options: Partial<UploadOptions> }

export interface UploadResult {
  file: FileRecord
  isDuplicate: boolean
}

interface StagedFile {
  blobKey: string
  path: string
  size: number
  cidV1: string
  mimeType: string
}

export function createUploads(ctx: ServiceContext) {
  /**
   * Streams one file into a fresh blob while computing its CIDv1 from the same bytes. On any
   * failure the blob is removed before the error propagates.
   */
  async function stage(
    item: Extract<UploadItem, { kind: 'file' }>,
    signal: AbortSignal | undefined,
  ): Promise<StagedFile> {
    const blobKey = ctx.ids.blobKey()
    const internal = new AbortController()
    const stop = () => internal.abort(signal?.reason)
    signal?.addEventListener('abort', stop, { once: true })
    const metered = meter(item.content, {
      maxBytes: ctx.maxUploadBytes,
      headSize: SNIFF_BYTES,
      signal: internal.signal,
    })
    const [toBlob, toImporter] = fork(metered.stream, 2)
    try {
      const [, cid] = await Promise.all([
        ctx.blobs.put(blobKey, toBlob!, { signal: internal.signal }),
        computeFileCid(toImporter!, 'v1'),
      ]).catch((error: unknown) => {
        // Stop the sibling branch at once instead of letting it drain the rest of the body.
        internal.abort(error)
        throw error
      })
      const mimeType = await detectMimeType(metered.meter.head, item.mimeType, basename(item.path))
      return { blobKey, path: item.path, size: metered.meter.bytes, cidV1: cid.toString(), mimeType }
    } catch (error) {
      await ctx.blobs.delete(blobKey).catch(() => {})
      throw signal?.aborted ? abortError(signal) : error
    } finally {
      signal?.removeEventListener('abort', stop)
    }
  }

  async function cidOf(staged: StagedFile, version: CidVersion, signal: AbortSignal | undefined): Promise<string> {
    if (version === 'v1') return staged.cidV1
    // Other profiles are rare and the SDK sends `cid_version` after the bytes, so they are computed from the blob.
    return (await computeFileCid(await ctx.blobs.get(staged.blobKey, { signal }), version)).toString()
  }

  /** Records the staged file. Owns the staged blob from here on: deletes it unless a record uses it. */
  async function commit(actor: Actor, staged: StagedFile, options: UploadOptions, signal: AbortSignal | undefined) {
    let cid: string | undefined
    try {
      cid = await cidOf(staged, options.cidVersion, signal)
      throwIfAborted(signal)
      const created = await ctx.records.createFile(
        {
          id: ctx.ids.recordId(),
          tenantId: actor.tenantId,
          userId: actor.userId,
          network: options.network,
          name: options.name,
          cid,
          size: staged.size,
          numberOfFiles: 1,
          mimeType: staged.mimeType,
          groupId: options.groupId,
          keyvalues: options.keyvalues,
          createdAt: ctx.clock.now(),
          expiresAt: options.expiresAt,
        },
        { cid, blobKey: staged.blobKey, size: staged.size, kind: 'file', profile: options.cidVersion },
      )
      if (created.content.blobKey !== staged.blobKey) {
        // Another upload of the same CID already owns stored bytes: ours are redundant. A failed
        // delete only leaves an unreferenced blob for the orphan sweep; the upload itself succeeded.
        await ctx.blobs.delete(staged.blobKey).catch(() => {})
      }
      return { file: created.file, isDuplicate: created.isDuplicate }
    } catch (error) {
      if (!(cid && (await blobIsReferenced(cid, staged.blobKey))))
        await ctx.blobs.delete(staged.blobKey).catch(() => {})
      throw error
    }
  }

  /**
   * After an ambiguous failure (the database committed but the answer was lost) the blob may
   * already back a record; deleting it then would leave a record without bytes.
   */
  async function blobIsReferenced(cid: string, blobKey: string): Promise<boolean> {
    try {
      return (await ctx.records.getContent(cid))?.blobKey === blobKey
    } catch {
      return true // cannot tell: keeping an orphan is recoverable, losing bytes is not
    }
  }

  function resolveOptions(given: Partial<UploadOptions>, staged: StagedFile): UploadOptions {
    return {
      network: given.network ?? 'private',
      name: validateName(given.name ?? (basename(staged.path) || 'file')),
      groupId: given.groupId ?? null,
      keyvalues: validateKeyvalues(given.keyvalues ?? {}),
      cidVersion: given.cidVersion ?? 'v1',
      expiresAt: validateExpiry(given.expiresAt ?? null, ctx.clock.now()),
    }
  }

  return {
    /**
     * Stores an uploaded file and records it. Bytes are durable in the blob store before the
     * record commits; a failed or aborted upload leaves neither a record nor a blob.
     */
    async upload(
      actor: Actor,
      items: AsyncIterable<UploadItem>,
      options: { signal?: AbortSignal | undefined } = {},
    ): Promise<UploadResult> {
      const { signal } = options
      let given: Partial<UploadOptions> = {}
      let staged: StagedFile | undefined
      try {
        for await (const item of items) {
          throwIfAborted(signal)
          if (item.kind === 'options') {
            given = { ...given, ...item.options }
            continue
          }
          if (staged) throw invalid('only one file may be uploaded per request')
          staged = await stage(item, signal)
        }
        if (!staged) throw invalid('file is required')
        const resolved = resolveOptions(given, staged)
        const committing = staged
        staged = undefined // commit owns the blob from here on
        return await commit(actor, committing, resolved, signal)
      } catch (error) {
        if (staged) await ctx.blobs.delete(staged.blobKey).catch(() => {})
        throw signal?.aborted && !(error instanceof PinfoldError) ? abortError(signal) : error
      }
    },
  }
}

function basename(path: string): string {
  return path.split('/').filter(Boolean).at(-1) ?? ''
}
