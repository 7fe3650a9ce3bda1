/** `FileService.maintenance`: the contract (its operations are in `maintenance.ts`). */

import type { CallOptions } from '@pinfold/interface'

export interface OrphanSweepOptions extends CallOptions {
  /** Only blobs older than this are touched; default one hour. */
  olderThanMs?: number | undefined
}

export interface OrphanSweepResult {
  examined: number
  deleted: number
}

export interface BackfillResult {
  indexed: number
  failed: { cid: string; error: unknown }[]
}

export interface MaintenanceOperations {
  /**
   * Deletes blobs that no content record owns: bytes of uploads that died between writing their blob
   * and committing their record (except a resumable upload's assembled blob while its session lives:
   * the session's retry records it); and blobs of resumable uploads (`tus/<session>/…`) that no session
   * names: those of PATCHes that died between storing them and advancing their session, which
   * nothing else would ever delete. Only blobs older than `olderThanMs` are touched — a blob key
   * holds a UUIDv7, so its age is read from the key itself and uploads still in flight are never swept.
   * With a blob store that cannot `list`, there is nothing to examine: `{ examined: 0, deleted: 0 }`.
   */
  sweepOrphanBlobs(options?: OrphanSweepOptions): Promise<OrphanSweepResult>

  /**
   * Indexes the blocks of contents stored before the block index existed; run once at start-up (and
   * harmless to run again). A content that cannot be indexed (its blob is gone) is reported in
   * `failed` and left. Until it has finished, blocks of those contents other than what their own
   * records name may answer `NOT_FOUND` on the gateway.
   */
  indexBlocks(options?: CallOptions): Promise<BackfillResult>
}
