import { type CallOptions, vectorizedExceeded } from '@pinfold/interface'
import { type LimitSettings, limitsOf } from './limits.js'

/**
 * Refuses (`QUOTA_EXCEEDED`) one more vectorized file past the tenant's `vectorizedFiles` limit
 * (Pinata's is 10,000) before the file is read and embedded, and answers the limit for
 * `upsertFileVectors`, which checks it again atomically with the write: of vectorizes racing at
 * the limit only those that fit store their vectors (the check here is the early refusal, that one
 * the guarantee, as for files). `undefined`: no limit.
 */
export async function admitVectorizedFile(
  ctx: LimitSettings,
  tenantId: string,
  options?: CallOptions,
): Promise<number | undefined> {
  const limit = (await limitsOf(ctx, tenantId, options)).vectorizedFiles
  if (limit === null) return undefined
  if ((await ctx.records.accounts.vectorizedFiles(tenantId, options)) >= limit) throw vectorizedExceeded(limit)
  return limit
}
