/** `FileService.files`: the contract (its operations are in `files.ts` and `upload.ts`). */

import type { Actor, CallOptions, CidVersion, FileFilter, FileRecord, KeyValues, Network } from '@pinfold/interface'
import type { ListResult } from '../common/api.js'
import type { PageQuery } from '../common/pagination.js'

/** Options of an upload; each may arrive before or after the file's bytes (multipart order varies). */
export interface UploadOptions {
  /** Defaults to `private`, as in Pinata's API. */
  network: Network
  name: string
  groupId: string | null
  keyvalues: KeyValues
  cidVersion: CidVersion
  expiresAt: Date | null
  /** The single file is a CAR whose root becomes the record's CID (public network only). */
  car: boolean
}

/**
 * One piece of an upload request, in arrival order. A file's `content` must be read to its end
 * (or abandoned by throwing) before the next item is requested — exactly how a multipart body
 * behaves — so the whole upload streams with bounded memory.
 *
 * One file whose path has no `/` is a single-file upload; files whose paths carry a relative
 * directory (`photos/a.jpg`, `photos/b.jpg`) are a folder upload, imported as `ipfs add -r photos`.
 */
export type UploadItem =
  | { kind: 'file'; path: string; mimeType?: string | undefined; content: AsyncIterable<Uint8Array> }
  | { kind: 'options'; options: Partial<UploadOptions> }

export interface UploadResult {
  file: FileRecord
  isDuplicate: boolean
}

/** Limits a signed upload URL (or a resumable session created through one) puts on an upload. */
export interface UploadConstraints {
  /** Largest accepted upload in bytes (below the service's own limit). */
  maxBytes?: number | undefined
  /** Allowed MIME types: exact, `type/*` wildcards, `*`; folders need the literal `directory`. */
  allowMimeTypes?: readonly string[] | undefined
  /** Options that win over whatever the request says. */
  fixed?: Partial<UploadOptions> | undefined
}

export interface UploadCallOptions extends CallOptions {
  constraints?: UploadConstraints | undefined
}

export interface FileListQuery extends PageQuery, FileFilter {}

export interface FileListResult extends ListResult {
  files: FileRecord[]
}

export interface FileUpdate {
  name?: string | undefined
  /** Merged into the file's keyvalues; `null` removes a key. */
  keyvalues?: Record<string, string | number | boolean | null> | undefined
  /** A future moment, or `null` to keep the file forever. */
  expiresAt?: Date | null | undefined
}

export interface FileOperations {
  /**
   * Stores an uploaded file (or folder, or CAR) and records it. Bytes are durable in the blob store
   * before the record commits; a failed or aborted upload leaves neither a record nor a blob. The
   * same CID uploaded again by the tenant on the network answers `isDuplicate`.
   *
   * `INVALID_INPUT`: no file, more than one single file, bad options (name, keyvalues, network,
   * CID version, a past `expiresAt`), a type the constraints do not allow, a malformed CAR or a CAR
   * off the public network. `PAYLOAD_TOO_LARGE`: beyond `maxUploadBytes` or the constraints'
   * `maxBytes`. `NOT_FOUND`: `groupId` names no group of the tenant on the network.
   */
  upload(actor: Actor, items: AsyncIterable<UploadItem>, options?: UploadCallOptions): Promise<UploadResult>

  /** The tenant's file with this id on `network`. `NOT_FOUND` when there is none. */
  get(actor: Actor, network: Network, id: string, options?: CallOptions): Promise<FileRecord>

  /** A page of the tenant's files on `network`, filtered. `INVALID_INPUT`: a bad limit or page token. */
  list(actor: Actor, network: Network, query?: FileListQuery, options?: CallOptions): Promise<FileListResult>

  /**
   * Renames a file, merges keyvalues into its own, or sets or clears its expiry; returns the updated
   * file. `INVALID_INPUT`: nothing to update, or a bad name, keyvalues or expiry. `NOT_FOUND`.
   */
  update(actor: Actor, network: Network, id: string, update: FileUpdate, options?: CallOptions): Promise<FileRecord>

  /**
   * Deletes the record first, then — when no record references the CID any more — its bytes. A
   * failed blob delete leaves an unreferenced blob (found by the orphan sweep), never a record
   * pointing at missing bytes. `NOT_FOUND`.
   */
  delete(actor: Actor, network: Network, id: string, options?: CallOptions): Promise<void>
}
