import { optionChecks, type TenantLimits } from '@pinfold/core'

const check = optionChecks('pinfold serve', 'environment')

/** Each default limit's variable; unset or empty is no limit. */
export const QUOTA_VARIABLES = {
  storageBytes: 'PINFOLD_QUOTA_STORAGE_BYTES',
  files: 'PINFOLD_QUOTA_FILES',
  fileBytes: 'PINFOLD_QUOTA_FILE_BYTES',
  openPinRequests: 'PINFOLD_QUOTA_PIN_REQUESTS',
  requestsPerMinute: 'PINFOLD_QUOTA_REQUESTS_PER_MINUTE',
  vectorizedFiles: 'PINFOLD_QUOTA_VECTORIZED_FILES',
} as const satisfies Record<keyof TenantLimits, string>

/** Every tenant's limits unless the operator overrides them for one (`PINFOLD_QUOTA_*`). */
export function quotaDefaultsFromEnv(env: NodeJS.ProcessEnv): TenantLimits {
  const limits = {} as TenantLimits
  for (const [name, variable] of Object.entries(QUOTA_VARIABLES) as [keyof TenantLimits, string][]) {
    const value = env[variable]
    limits[name] = value === undefined || value === '' ? null : check.nonNegativeInteger(variable, Number(value))
  }
  return limits
}
