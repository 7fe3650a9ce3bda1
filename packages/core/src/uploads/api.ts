/** `FileService.uploads`: the contract (its operations are in `signed.ts` and `resumable.ts`). */

import type { Actor, CallOptions, Network } from '@pinfold/interface'
import type { KeyValueInput } from '../common/api.js'
import type { UploadConstraints, UploadOptions, UploadResult } from '../files/api.js'

/** What `POST /v3/files/sign` asks for (the spec's body fields, camelCased). */
export interface SignUploadRequest {
  /** Unix seconds at which the URL is signed; default now. */
  date?: number | undefined
  /** Seconds the URL stays valid after `date`. */
  expires: number
  maxFileSize?: number | undefined
  allowMimeTypes?: readonly string[] | undefined
  groupId?: string | undefined
  keyvalues?: KeyValueInput | undefined
  filename?: string | undefined
  network?: Network | undefined
}

/** A verified signed upload URL: who uploads, until when, and under which constraints. */
export interface UploadGrant {
  actor: Actor
  expiresAt: Date
  constraints: UploadConstraints
}

export interface SignedUploadUrl {
  /** Relative to the API root, e.g. `/v3/files/<id>`; the HTTP layer prefixes its public URL. */
  path: string
  query: URLSearchParams
}

/**
 * Signed upload URLs: every constraint travels inside the URL and is covered by its HMAC signature,
 * so nothing unsigned can loosen them and no record is needed. Both need the `signedUploads` feature.
 */
export interface SignedUploadOperations {
  /**
   * Signs an upload URL for the actor under the given constraints. `INVALID_INPUT`: a bad date
   * (more than five minutes ahead), expiry, size, type list, network, keyvalues or filename.
   * `NOT_FOUND`: `groupId` names no group of the actor. `UNAVAILABLE` without a signing secret.
   */
  sign(actor: Actor, request: SignUploadRequest, options?: CallOptions): Promise<SignedUploadUrl>

  /**
   * Checks a signed upload URL before any byte is read; synchronous, as it reads no store.
   * `UNAUTHENTICATED`: no signature. `FORBIDDEN`: a wrong signature (any parameter or the path
   * changed) or an expired URL. `UNAVAILABLE` without a signing secret.
   */
  verify(path: string, query: URLSearchParams, options?: CallOptions): UploadGrant
}

export interface CreateSessionRequest {
  /** `Upload-Length`. */
  length: number
  /** From `Upload-Metadata` `filename` (else the name option). */
  fileName?: string | undefined
  /** From `Upload-Metadata` `filetype`. */
  mimeType?: string | undefined
  options: Partial<UploadOptions>
  /** Set when the session is created through a signed upload URL. */
  constraints?: UploadConstraints | undefined
}

export interface CreatedSession {
  id: string
  /** The secret half of the session's URL; only its hash is stored. */
  token: string
  length: number
  expiresAt: Date
}

export interface SessionStatus {
  offset: number
  length: number
  expiresAt: Date
}

export interface PatchResult extends SessionStatus {
  /** Set by the PATCH that completed the upload. */
  result?: UploadResult | undefined
}

/**
 * Uploads beyond a single request: signed URLs, and resumable sessions (tus 1.0 core + creation +
 * termination). A session is addressed by its id and secret token; an absent session, a wrong token
 * and an expired session are the same `NOT_FOUND`. The PATCH that completes a session runs the
 * ordinary upload, with its checks and errors.
 */
export interface UploadOperations {
  signed: SignedUploadOperations

  /**
   * Opens a session for `length` bytes; options the completion would refuse are refused now.
   * `INVALID_INPUT`: a bad length or option. `PAYLOAD_TOO_LARGE`: beyond the upload limit or the
   * constraints' `maxBytes`.
   */
  create(actor: Actor, request: CreateSessionRequest, options?: CallOptions): Promise<CreatedSession>

  /** The session's offset, length and expiry (tus HEAD). `NOT_FOUND`. */
  status(id: string, token: string, options?: CallOptions): Promise<SessionStatus>

  /**
   * Appends `body` at `offset` (tus PATCH); the PATCH reaching the announced length records the
   * upload (`result`). A resend of the last accepted part is acknowledged without storing it again.
   * `CONFLICT`: `offset` is not the session's (or another request wrote there first).
   * `PAYLOAD_TOO_LARGE`: bytes beyond the announced length. `NOT_FOUND`. The completion reports what
   * `files.upload` (`../files/api.ts`) reports.
   */
  append(
    id: string,
    token: string,
    offset: number,
    body: AsyncIterable<Uint8Array>,
    options?: CallOptions,
  ): Promise<PatchResult>

  /**
   * Removes the session and its parts (tus termination). `NOT_FOUND`. `CONFLICT` while a completion
   * holds the session's claim (its bytes are being recorded).
   */
  terminate(id: string, token: string, options?: CallOptions): Promise<void>

  /**
   * Removes sessions abandoned past their expiry (default: the service clock's now), with their
   * parts; returns how many. Several processes may sweep at once. A session whose completion is
   * running (its claim's lease live) is left to it.
   */
  sweepExpiredSessions(now?: Date, options?: CallOptions): Promise<number>
}
