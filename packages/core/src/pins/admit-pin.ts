import type { CallOptions } from '@pinfold/interface'
import { admitFile } from '../quotas/admission.js'
import { limitsOf } from '../quotas/limits.js'
import type { PinJobSettings } from './pin-job.js'

/**
 * Checks a tenant's limits before a pin request is queued and answers its queue cap: a tenant whose
 * files or storage are at their limit is refused now (`QUOTA_EXCEEDED`), not after a fetch; the cap
 * is the deployment's share of the queue or the tenant's `openPinRequests`, whichever is less.
 */
export async function admitPin(ctx: PinJobSettings, tenantId: string, options?: CallOptions): Promise<number> {
  await admitFile(ctx, tenantId, undefined, options)
  const limit = (await limitsOf(ctx, tenantId, options)).openPinRequests
  return Math.min(ctx.pinning.maxQueuedPerTenant, limit ?? Number.POSITIVE_INFINITY)
}
