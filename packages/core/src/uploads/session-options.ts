import type { SessionConstraints, SessionUploadOptions, UploadSessionRecord } from '@pinfold/interface'
import {
  validateCidVersion,
  validateExpiry,
  validateKeyvalues,
  validateName,
  validateNetwork,
} from '../common/validate.js'
import type { UploadConstraints, UploadOptions } from '../files/api.js'

/**
 * A resumable session's upload options and constraints: checked when the session is created, kept
 * in its record (the store holds plain values), and given back to `files.upload`'s steps at the
 * completion.
 */

/** The checks `upload` makes on the options it is given, made on those a session will pass it. */
export function checkOptions(options: Partial<UploadOptions>, now: Date): void {
  if (options.name !== undefined) validateName(options.name)
  if (options.keyvalues !== undefined) validateKeyvalues(options.keyvalues)
  if (options.network !== undefined) validateNetwork(options.network)
  if (options.cidVersion !== undefined) validateCidVersion(options.cidVersion)
  // time only moves on: an expiry past now is past at the completion too
  if (options.expiresAt !== undefined) validateExpiry(options.expiresAt, now)
}

/**
 * Whether the session's PATCHes index the raw leaves they store: when the file is to be recorded
 * under its CIDv1 (any other CID version, or a CAR upload, gets its DAG from the blob at the end).
 */
export function indexesLeaves(session: UploadSessionRecord): boolean {
  const fixed = session.constraints?.fixed
  const version = fixed?.cidVersion ?? session.options.cidVersion ?? 'v1'
  return version === 'v1' && !(fixed?.car ?? session.options.car)
}

/** The session's name as an upload path: a plain file name (a `/` would mean a folder). */
export function plainFileName(name: string): string {
  return name.replaceAll('/', '_').replaceAll('\\', '_') || 'file'
}

/** Upload options as a session record keeps them (an expiry as Unix milliseconds). */
export function toSessionOptions(options: Partial<UploadOptions>): SessionUploadOptions {
  const { expiresAt, ...rest } = options
  return { ...rest, ...(expiresAt !== undefined && { expiresAtMs: expiresAt === null ? null : expiresAt.getTime() }) }
}

/** {@link toSessionOptions} undone. */
export function fromSessionOptions(options: SessionUploadOptions): Partial<UploadOptions> {
  const out: Partial<UploadOptions> = {}
  if (options.network !== undefined) out.network = options.network
  if (options.name !== undefined) out.name = options.name
  if (options.groupId !== undefined) out.groupId = options.groupId
  if (options.keyvalues !== undefined) out.keyvalues = options.keyvalues
  if (options.cidVersion !== undefined) out.cidVersion = options.cidVersion
  if (options.car !== undefined) out.car = options.car
  if (options.expiresAtMs !== undefined)
    out.expiresAt = options.expiresAtMs === null ? null : new Date(options.expiresAtMs)
  return out
}

/** A signed URL's constraints as a session record keeps them. */
export function toSessionConstraints(constraints: UploadConstraints): SessionConstraints {
  return {
    maxBytes: constraints.maxBytes,
    allowMimeTypes: constraints.allowMimeTypes ? [...constraints.allowMimeTypes] : undefined,
    fixed: constraints.fixed ? toSessionOptions(constraints.fixed) : undefined,
  }
}

/** {@link toSessionConstraints} undone. */
export function fromSessionConstraints(constraints: SessionConstraints | null): UploadConstraints | undefined {
  if (!constraints) return undefined
  return {
    maxBytes: constraints.maxBytes ?? undefined,
    allowMimeTypes: constraints.allowMimeTypes ?? undefined,
    fixed: constraints.fixed ? fromSessionOptions(constraints.fixed) : undefined,
  }
}
