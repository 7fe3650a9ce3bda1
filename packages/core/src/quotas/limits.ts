import {
  type CallOptions,
  invalid,
  TENANT_LIMIT_NAMES,
  type TenantLimitOverrides,
  type TenantLimits,
} from '@pinfold/interface'
import type { ServiceContext } from '../service/context.js'

/** What reading a tenant's limits uses of the service. */
export type LimitSettings = Pick<ServiceContext, 'records' | 'quotaDefaults'>

/** No limit on anything: the defaults of a deployment that sets none. */
export const UNLIMITED: TenantLimits = {
  storageBytes: null,
  files: null,
  fileBytes: null,
  openPinRequests: null,
  requestsPerMinute: null,
  vectorizedFiles: null,
}

/** The deployment's defaults with the tenant's overrides applied. */
export async function limitsOf(ctx: LimitSettings, tenantId: string, options?: CallOptions): Promise<TenantLimits> {
  return applyOverrides(ctx.quotaDefaults, await ctx.records.accounts.getLimits(tenantId, options))
}

export function applyOverrides(defaults: TenantLimits, overrides: TenantLimitOverrides): TenantLimits {
  const limits = { ...defaults }
  for (const name of TENANT_LIMIT_NAMES) {
    const value = overrides[name]
    if (value !== undefined) limits[name] = value
  }
  return limits
}

/** Checks overrides given by an operator: known names, each a non-negative safe integer or null. */
export function validateOverrides(given: unknown): TenantLimitOverrides {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw invalid('limits must be an object')
  const overrides: TenantLimitOverrides = {}
  for (const [name, value] of Object.entries(given)) {
    if (!(TENANT_LIMIT_NAMES as readonly string[]).includes(name)) {
      throw invalid(`${name} is not a limit; the limits are ${TENANT_LIMIT_NAMES.join(', ')}`)
    }
    if (value === undefined) continue
    if (value !== null && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
      throw invalid(`${name} must be a non-negative integer, or null for no limit`)
    }
    overrides[name as keyof TenantLimits] = value as number | null
  }
  return overrides
}
