import type { TenantAccount, TenantLimitOverrides, TenantLimits } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { named } from '../../schema.js'

/** Wire name of each limit (snake_case, as the rest of the API). */
export const LIMIT_WIRE_NAMES = {
  storageBytes: 'storage_bytes',
  files: 'files',
  fileBytes: 'file_bytes',
  openPinRequests: 'open_pin_requests',
  requestsPerMinute: 'requests_per_minute',
  vectorizedFiles: 'vectorized_files',
} as const satisfies Record<keyof TenantLimits, string>

const LIMIT_DESCRIPTIONS: Record<keyof TenantLimits, string> = {
  storageBytes: 'Bytes the account may store (the sum of its files’ sizes)',
  files: 'Files the account may hold, both networks',
  fileBytes: 'Bytes of one file, folder or CAR',
  openPinRequests: 'Pin-by-CID requests queued or running',
  requestsPerMinute: 'Authenticated API requests per minute',
  vectorizedFiles: 'Files with stored vectors',
}

const limit = (name: keyof TenantLimits) =>
  Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: `${LIMIT_DESCRIPTIONS[name]}; null: no limit`,
  })

const limitFields = {
  storage_bytes: limit('storageBytes'),
  files: limit('files'),
  file_bytes: limit('fileBytes'),
  open_pin_requests: limit('openPinRequests'),
  requests_per_minute: limit('requestsPerMinute'),
  vectorized_files: limit('vectorizedFiles'),
}

export const TenantLimitsWire = named('TenantLimits', Type.Object(limitFields))

/** Overrides as an operator sends them: any subset of the limits; an absent one takes the default. */
export const TenantLimitOverridesWire = named('TenantLimitOverrides', Type.Partial(Type.Object(limitFields)))

export const TenantUsageWire = named(
  'TenantUsage',
  Type.Object({
    files: Type.Integer({ description: 'File records, both networks' }),
    logical_bytes: Type.Integer({ description: 'The sum of the files’ sizes (what `userPinnedDataTotal` reports)' }),
    contents: Type.Integer({ description: 'Distinct contents (stored blobs) the files reference' }),
    sole_bytes: Type.Integer({ description: 'Bytes of contents no other account references' }),
    shared_bytes: Type.Integer({ description: 'Bytes of contents other accounts reference too, each counted in full' }),
    open_pin_requests: Type.Integer({ description: 'Pin-by-CID requests queued or running' }),
    vectorized_files: Type.Integer(),
  }),
)

export const TenantAccountWire = named(
  'TenantAccount',
  Type.Object({
    limits: TenantLimitsWire,
    usage: TenantUsageWire,
  }),
)

/** An operator's overrides as sent on the wire (only the limits set). */
export function overridesToWire(limits: TenantLimitOverrides): Record<string, number | null> {
  const wire: Record<string, number | null> = {}
  for (const [name, value] of Object.entries(limits) as [keyof TenantLimits, number | null | undefined][]) {
    if (value !== undefined) wire[LIMIT_WIRE_NAMES[name]] = value
  }
  return wire
}

/** An operator's overrides from the wire (unknown names are left for core to refuse). */
export function overridesFromWire(body: Record<string, unknown>): Record<string, unknown> {
  const byWire = new Map(Object.entries(LIMIT_WIRE_NAMES).map(([name, wire]) => [wire as string, name]))
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [byWire.get(key) ?? key, value]))
}

export function limitsToWire(limits: TenantLimits): Static<typeof TenantLimitsWire> {
  return {
    storage_bytes: limits.storageBytes,
    files: limits.files,
    file_bytes: limits.fileBytes,
    open_pin_requests: limits.openPinRequests,
    requests_per_minute: limits.requestsPerMinute,
    vectorized_files: limits.vectorizedFiles,
  }
}

export function accountToWire(account: TenantAccount): Static<typeof TenantAccountWire> {
  const { usage, limits } = account
  return {
    limits: limitsToWire(limits),
    usage: {
      files: usage.files,
      logical_bytes: usage.logicalBytes,
      contents: usage.contents,
      sole_bytes: usage.soleBytes,
      shared_bytes: usage.sharedBytes,
      open_pin_requests: usage.openPinRequests,
      vectorized_files: usage.vectorizedFiles,
    },
  }
}
