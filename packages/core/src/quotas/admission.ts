import { type CallOptions, type FileQuota, hasCode, PinfoldError } from '@pinfold/interface'
import { type LimitSettings, limitsOf } from './limits.js'

/**
 * What a tenant's limits leave for one more file, read before any byte of it is stored. The
 * figures may move while the bytes stream (another upload of the tenant lands): `quota` is what
 * `createFile` checks again, atomically with the record, so the stream's cap is an early refusal
 * and the record's check the guarantee.
 */
export interface FileAdmission {
  /** The most bytes the file may have: the per-file limit and the storage left, whichever is less. */
  maxBytes: number
  /** What recording the file must keep the tenant within (undefined: no limit applies). */
  quota: FileQuota | undefined
  /**
   * The error for a stream cut at a cap of `cap` bytes (`PAYLOAD_TOO_LARGE` from the meter): a
   * `QUOTA_EXCEEDED` when the storage left was that cap, else the error as it was.
   */
  explain(error: unknown, cap: number): unknown
}

export const storageExceeded = (max: number) =>
  new PinfoldError('QUOTA_EXCEEDED', `storage limit reached: the account may store ${max} bytes`)
export const filesExceeded = (max: number) =>
  new PinfoldError('QUOTA_EXCEEDED', `file limit reached: the account may hold ${max} files`)
export const fileTooLarge = (max: number) =>
  new PinfoldError('PAYLOAD_TOO_LARGE', `the account's files are limited to ${max} bytes each`)

/**
 * Admits one more file of `size` bytes (undefined: not known before it streams) for a tenant, or
 * throws: `QUOTA_EXCEEDED` when its files or storage are at their limit (or `size` does not fit
 * what is left), `PAYLOAD_TOO_LARGE` when `size` is over its per-file limit.
 */
export async function admitFile(
  ctx: LimitSettings,
  tenantId: string,
  size: number | undefined,
  options?: CallOptions,
): Promise<FileAdmission> {
  const limits = await limitsOf(ctx, tenantId, options)
  const fileBytes = limits.fileBytes ?? Number.POSITIVE_INFINITY
  if (size !== undefined && size > fileBytes) throw fileTooLarge(fileBytes)
  if (limits.files === null && limits.storageBytes === null) {
    return { maxBytes: fileBytes, quota: undefined, explain: (error) => error }
  }
  const used = await ctx.records.accounts.keptUsage(tenantId, options)
  if (limits.files !== null && used.files >= limits.files) throw filesExceeded(limits.files)
  let storageLeft = Number.POSITIVE_INFINITY
  if (limits.storageBytes !== null) {
    storageLeft = limits.storageBytes - used.logicalBytes
    if (size === undefined ? storageLeft <= 0 : size > storageLeft) throw storageExceeded(limits.storageBytes)
  }
  const storageLimit = limits.storageBytes
  return {
    maxBytes: Math.min(fileBytes, storageLeft),
    quota: {
      maxFiles: limits.files ?? undefined,
      maxLogicalBytes: storageLimit ?? undefined,
    },
    explain(error, cap) {
      if (storageLimit === null || !hasCode(error, 'PAYLOAD_TOO_LARGE') || cap !== storageLeft) return error
      return storageExceeded(storageLimit)
    },
  }
}

/**
 * The quota a record must keep its tenant within, refusing nothing now: for a file whose bytes are
 * stored already (a resumable upload's completion), where an early refusal saves nothing and would
 * refuse the retry of a completion already recorded (its own file filling the last place).
 */
export async function fileQuotaOf(
  ctx: LimitSettings,
  tenantId: string,
  options?: CallOptions,
): Promise<FileQuota | undefined> {
  const limits = await limitsOf(ctx, tenantId, options)
  if (limits.files === null && limits.storageBytes === null) return undefined
  return { maxFiles: limits.files ?? undefined, maxLogicalBytes: limits.storageBytes ?? undefined }
}
