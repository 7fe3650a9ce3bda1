import type { CallOptions } from '../call-options.js'
import type { ContentRecord, FileFilter, FilePatch, FileRecord, Network, NewFile, Page, PageRequest } from '../model.js'
import type { BlockedNotice } from './deny-rule-records.js'
import type { RecordedOptions } from './event-records.js'
import type { FileQuota } from './tenant-accounts.js'

export interface CreatedFile {
  file: FileRecord
  /** True when this tenant already held a file with this CID on this network before this call. */
  isDuplicate: boolean
  /**
   * The content record that now backs the file. When another upload of the same CID won the race
   * (or came earlier), this is *its* record and the caller's blob is redundant: the caller deletes it.
   */
  content: ContentRecord
}

export interface CreateFileOptions extends RecordedOptions {
  /** Only reference an existing content record, never store `content` (see `createFile`). */
  requireContent?: boolean | undefined
  /**
   * Limits the tenant's figures must stay within once the file is recorded: checked in the same
   * atomic step that records it, so of concurrent creates only those that fit are stored. Past it
   * the answer is `QUOTA_EXCEEDED` and nothing is written.
   */
  quota?: FileQuota | undefined
  /**
   * `content.blocked` notices the file's arrival owes its tenant (a rule blocks its root), recorded
   * as `DenyRuleRecordStore.recordBlockedNotices` records them, in the file's own atomic step: a
   * notice new to the store is kept and its event appended; one told before (by an earlier upload,
   * by the held-content scan, on any instance) is skipped with its event.
   */
  blockedNotices?: readonly BlockedNotice[] | undefined
}

export interface DeletedFile {
  file: FileRecord
  /**
   * Set when the deleted file was the last one referencing its CID: the content record is gone too
   * and the caller must delete this blob. Exactly one of several concurrent deleters receives it.
   */
  releasedContent?: ContentRecord | undefined
}

/** Files and the contents (stored bytes) they reference. */
export interface FileRecordStore {
  /**
   * Records an uploaded file, atomically with its content:
   * - If no content record exists for `content.cid`, `content` is stored and returned.
   * - Otherwise the existing content record is kept and returned (the caller's blob is redundant).
   *   Of many concurrent calls with the same new CID, exactly one stores its content record.
   * - `isDuplicate` is decided under the same lock: of N concurrent calls by one tenant on one
   *   network with one CID, at most one answers `false`.
   * - `file.groupId`, when set, must name a group of the same tenant and network, else `NOT_FOUND`
   *   and nothing is written.
   * - `file.id` is new; reusing an id is a `CONFLICT`.
   * - With `requireContent`, the caller wrote no blob and shares the content other files
   *   reference: if no content record exists for `content.cid` (its last file was deleted, and
   *   its blob goes with it), nothing is written and the answer is `NOT_FOUND`. Against a
   *   concurrent `deleteFile` of the last file either this call comes first (the file is made and
   *   the content is no longer released) or it answers `NOT_FOUND`: never a file on a released blob.
   */
  createFile(file: NewFile, content: ContentRecord, options?: CreateFileOptions): Promise<CreatedFile>

  /** Tenant-scoped lookup. */
  getFile(tenantId: string, network: Network, id: string, options?: CallOptions): Promise<FileRecord | undefined>

  /**
   * A keyset page of the tenant's files on one network, ordered by `(createdAt, id)` in `page.order`,
   * starting strictly after `page.after`. Filters combine with AND.
   */
  listFiles(
    tenantId: string,
    network: Network,
    filter: FileFilter,
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<FileRecord>>

  /**
   * Applies a patch; returns the updated record, or `undefined` when the file does not exist for
   * this tenant and network. A `groupId` must name a group of the same tenant and network, else
   * `NOT_FOUND` and nothing changes.
   */
  updateFile(
    tenantId: string,
    network: Network,
    id: string,
    patch: FilePatch,
    options?: RecordedOptions,
  ): Promise<FileRecord | undefined>

  /**
   * Deletes a file record. When it was the last record referencing its CID, the content record is
   * deleted in the same atomic step and returned as `releasedContent`; a concurrent `createFile` of
   * the same CID either sees the content before (and keeps it alive) or recreates it after.
   */
  deleteFile(
    tenantId: string,
    network: Network,
    id: string,
    options?: RecordedOptions,
  ): Promise<DeletedFile | undefined>

  /** The content record of a CID, if any file references it. */
  getContent(cid: string, options?: CallOptions): Promise<ContentRecord | undefined>

  /**
   * Whether a content record owns this blob key. The orphan sweep deletes only blobs for which
   * this is false (and which are older than any upload in flight).
   */
  isBlobReferenced(blobKey: string, options?: CallOptions): Promise<boolean>
}
