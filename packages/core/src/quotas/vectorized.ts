import { type CallOptions, PinfoldError } from '@pinfold/interface'
import { type LimitSettings, limitsOf } from './limits.js'

/**
 * Refuses (`QUOTA_EXCEEDED`) one more vectorized file past the tenant's `vectorizedFiles` limit
 * (Pinata's is 10,000). Checked before the file is read and embedded; two vectorizes racing at the
 * limit may both pass (the count is not kept with the vectors), which overshoots by at most the
 * tenant's concurrent vectorize requests — bounded, and far cheaper than a lock around embedding.
 */
export async function admitVectorizedFile(ctx: LimitSettings, tenantId: string, options?: CallOptions): Promise<void> {
  const limit = (await limitsOf(ctx, tenantId, options)).vectorizedFiles
  if (limit === null) return
  if ((await ctx.records.accounts.vectorizedFiles(tenantId, options)) >= limit) {
    throw new PinfoldError('QUOTA_EXCEEDED', `vectorized file limit reached: the account may vectorize ${limit} files`)
  }
}
