import type { CallOptions, TenantUsage } from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'
import type { QuotaOperations, TenantAccount } from './api.js'
import { applyOverrides, validateOverrides } from './limits.js'
import { createRequestRate } from './request-rate.js'

/** What the quota operations use of the service. */
export type QuotaSettings = Pick<ServiceContext, 'records' | 'clock' | 'quotaDefaults'>

/** Open pin-by-CID requests: the states the queue cap counts. */
const OPEN_PIN_STATES = ['queued', 'retrieving'] as const

/**
 * A tenant's use: the figures the record store keeps with every file (one row), and the two it
 * counts on demand, each bounded by its limit (open pin requests, vectorized files).
 */
export async function usageOf(ctx: QuotaSettings, tenantId: string, options?: CallOptions): Promise<TenantUsage> {
  const [kept, openPinRequests, vectorizedFiles] = await Promise.all([
    ctx.records.accounts.keptUsage(tenantId, options),
    ctx.records.pinRequests.countPinRequests(tenantId, { states: [...OPEN_PIN_STATES] }, options),
    ctx.records.accounts.vectorizedFiles(tenantId, options),
  ])
  return { ...kept, openPinRequests, vectorizedFiles }
}

export function createQuotaOperations(ctx: QuotaSettings): QuotaOperations {
  const rate = createRequestRate(ctx)

  async function tenantAccount(tenantId: string, options?: CallOptions): Promise<TenantAccount> {
    const [overrides, usage] = await Promise.all([
      ctx.records.accounts.getLimits(tenantId, options),
      usageOf(ctx, tenantId, options),
    ])
    return { tenantId, limits: applyOverrides(ctx.quotaDefaults, overrides), overrides, usage }
  }

  return {
    account: (actor, options) => tenantAccount(actor.tenantId, options),
    tenantAccount,
    async setTenantLimits(tenantId, given, options) {
      await ctx.records.accounts.setLimits(tenantId, validateOverrides(given), options)
      rate.forget(tenantId)
      return tenantAccount(tenantId, options)
    },
    takeRequest: rate.takeRequest,
  }
}
