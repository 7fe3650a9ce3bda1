import type { CallOptions } from '../call-options.js'
import type { CidVersion } from '../cid-version.js'
import type { KeyValues, Network } from '../model.js'

/** Upload options of a resumable session, in a JSON-safe form (dates as epoch milliseconds). */
export interface SessionUploadOptions {
  network?: Network | undefined
  name?: string | undefined
  groupId?: string | null | undefined
  keyvalues?: KeyValues | undefined
  cidVersion?: CidVersion | undefined
  expiresAtMs?: number | null | undefined
  car?: boolean | undefined
}

/** Limits carried over from the signed upload URL a session was created through. */
export interface SessionConstraints {
  maxBytes?: number | undefined
  allowMimeTypes?: string[] | undefined
  fixed?: SessionUploadOptions | undefined
}

/** The staged blob write (see `StagedBlobWrites`) a resumable upload's bytes go into. */
export interface SessionStagedWrite {
  /** The blob key the upload's bytes will be stored under. */
  key: string
  /** The blob store's handle of the staged write. */
  handle: string
  /**
   * Core's own record of what the PATCHes so far built of the upload's DAG (opaque JSON): saved
   * with each advance, so it always matches the offset. Absent in sessions begun before it existed.
   */
  dag?: string | undefined
}

/**
 * A resumable (tus) upload in progress. Each accepted PATCH adds one entry to `parts`, in offset
 * order: with `staged`, core's record of the part it appended to the staged write; without (a
 * session begun on a blob store without staged writes, or before they existed), the key of a blob
 * holding exactly the PATCH's bytes.
 */
export interface UploadSessionRecord {
  id: string
  /** SHA-256 (hex) of the session's secret token; the token itself is never stored. */
  tokenHash: string
  tenantId: string
  userId: string
  /** Total bytes the client announced (`Upload-Length`). */
  length: number
  /** Bytes received so far. */
  offset: number
  parts: string[]
  fileName: string
  mimeType: string | null
  options: SessionUploadOptions
  constraints: SessionConstraints | null
  /** Where the bytes are staged, or `null` when each part is a blob of its own. */
  staged: SessionStagedWrite | null
  createdAt: Date
  /** Abandoned sessions past this moment are swept with their parts. */
  expiresAt: Date
}

/** Who holds a session's completion claim, and until when. */
export interface UploadCompletionLease {
  /** The completion attempt holding it: core makes a fresh id for each attempt. */
  owner: string
  /** From this moment on another attempt may take the claim over (its holder is taken for dead). */
  expiresAt: Date
}

export interface UploadSessionAdvance {
  /** The new offset: the expected one plus the bytes of `part`. */
  offset: number
  /** The part holding the bytes between the expected and the new offset (see `parts`). */
  part: string
  expiresAt: Date
  /** When given, replaces the session's `staged` in the same atomic step (its `dag` moves with the offset). */
  staged?: SessionStagedWrite | undefined
  /**
   * The completion claim this advance takes if it reaches the session's length (see
   * {@link UploadSessionRecordStore.claimUploadCompletion}); an advance that stops short of it
   * leaves the claim as it is.
   */
  completion: UploadCompletionLease
}

/** Resumable upload sessions. Sessions are addressed by id; core checks the token itself. */
export interface UploadSessionRecordStore {
  /** Stores a new session; reusing an id is a `CONFLICT`. */
  createUploadSession(session: UploadSessionRecord, options?: CallOptions): Promise<void>

  getUploadSession(id: string, options?: CallOptions): Promise<UploadSessionRecord | undefined>

  /**
   * Compare-and-set: only when the session's offset is still `expectedOffset`, sets the new offset
   * and expiry and appends the part, returning the updated session. Otherwise (another PATCH won,
   * or the session is gone) changes nothing and returns `undefined`. Of concurrent calls with the
   * same expected offset, exactly one succeeds. An advance that reaches the session's length also
   * takes its completion claim for `advance.completion` (see {@link claimUploadCompletion}) in the
   * same atomic step, so the PATCH that sent the last bytes is the one that completes the upload,
   * never a racing empty one.
   */
  advanceUploadSession(
    id: string,
    expectedOffset: number,
    advance: UploadSessionAdvance,
    options?: CallOptions,
  ): Promise<UploadSessionRecord | undefined>

  /**
   * Claims the right to complete a session, for `owner` until `now + leaseMs`. The PATCH that
   * reached the session's length holds it from its advance; a bodiless PATCH at the final offset
   * claims it here to retry a completion that failed, or that died with its process. The upload
   * pipeline runs only with the claim, so an upload is recorded once however many PATCHes arrive
   * at the final offset.
   * - `'claimed'` when no claim is held, or the one held expired at or before `now` (its holder is
   *   taken for dead and loses it); of any number of concurrent callers (in any process) exactly
   *   one gets `'claimed'`.
   * - `'already'` while another claim's lease runs (whoever holds it, `owner` included), and for a
   *   session that is gone.
   * The claim lasts until its owner releases it, the session is deleted, or another caller takes
   * it over after its lease; its holder renews it ({@link renewUploadCompletion}) while it works.
   */
  claimUploadCompletion(
    id: string,
    owner: string,
    now: Date,
    leaseMs: number,
    options?: CallOptions,
  ): Promise<'claimed' | 'already'>

  /**
   * Extends the claim `owner` holds to `until`. False (and nothing changes) when the session is
   * gone or its claim is not `owner`'s (released, or taken over after the lease ran out): the
   * completion then stops. A lease that ran out but was not taken over is still `owner`'s.
   */
  renewUploadCompletion(id: string, owner: string, until: Date, options?: CallOptions): Promise<boolean>

  /**
   * Gives `owner`'s claim back after a failed completion, so a later PATCH may claim it at once.
   * False (and nothing changes) when the session is gone or the claim is not `owner`'s.
   */
  releaseUploadCompletion(id: string, owner: string, options?: CallOptions): Promise<boolean>

  /** Deletes a session and returns it; of concurrent deleters exactly one receives it. */
  deleteUploadSession(id: string, options?: CallOptions): Promise<UploadSessionRecord | undefined>

  /** Up to `limit` sessions whose `expiresAt` is at or before `now`, oldest expiry first. */
  listExpiredUploadSessions(now: Date, limit: number, options?: CallOptions): Promise<UploadSessionRecord[]>
}
