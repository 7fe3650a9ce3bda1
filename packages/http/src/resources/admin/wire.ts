import type {
  PinRequestRecord,
  PinStateTotal,
  StoredTotals,
  TenantAccount,
  TenantDetail,
  TenantRecord,
  TenantSummary,
} from '@pinfold/core'
import { ADMIN_PAGE_MAX } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { Count, DateTime, named } from '../../schema.js'
import {
  accountToWire,
  limitsToWire,
  overridesToWire,
  TenantAccountWire,
  TenantLimitOverridesWire,
  TenantLimitsWire,
} from '../limits/wire.js'

const PIN_STATES = ['queued', 'retrieving', 'pinned', 'failed'] as const

/** The tenant id in a path: what a token's `org` claim holds. */
export const TenantIdParam = Type.String({ minLength: 1, maxLength: 200, description: 'The tenant: its tokens’ `org`' })

const Suspension = Type.Union([
  Type.Object({
    at: DateTime,
    reason: Type.String(),
    hide_content: Type.Boolean({ description: 'Whether the gateways stopped serving its public content' }),
  }),
  Type.Null(),
])

const TenantFields = {
  id: Type.String(),
  created_at: DateTime,
  origin: Type.Enum(['token', 'admin'], {
    description: 'Known by its first authenticated request (`token`) or created by the admin API (`admin`)',
  }),
  suspension: Suspension,
}

const StorageUse = Type.Object(
  { files: Count, bytes: Count },
  { description: 'Files held (both networks) and the sum of their sizes, as `GET /v3/usage/storage` gives them' },
)

export const Tenant = named('AdminTenant', Type.Object(TenantFields))

const Accounting = Type.Object(
  {
    logical_bytes: Count,
    contents: Count,
    sole_bytes: Count,
    shared_bytes: Count,
  },
  {
    description:
      'What it stores under deduplication, as `TenantUsage` counts it: the sum of its files’ sizes, its distinct contents, and their bytes it alone references or shares with other tenants',
  },
)

const TenantListItem = named(
  'AdminTenantSummary',
  Type.Object({ ...TenantFields, usage: StorageUse, accounting: Accounting, limits: TenantLimitsWire }),
)

export const TenantList = Type.Object({ tenants: Type.Array(TenantListItem), total: Count })

/** The tenant's limits and use (as `GET /v3/data/limits` answers it) and the operator's overrides. */
export const AdminTenantAccount = named(
  'AdminTenantAccount',
  Type.Object({
    ...TenantAccountWire.properties,
    overrides: TenantLimitOverridesWire,
  }),
)

export const TenantDetailObject = named(
  'AdminTenantDetail',
  Type.Object({
    ...TenantFields,
    usage: StorageUse,
    pins: Type.Object(
      Object.fromEntries(PIN_STATES.map((s) => [s, Count])) as Record<(typeof PIN_STATES)[number], typeof Count>,
    ),
    api_keys: Type.Object({ total: Count, active: Count }),
    account: AdminTenantAccount,
  }),
)

export const TenantListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Tenant ids containing this, any case' })),
  status: Type.Optional(Type.Enum(['active', 'suspended'])),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, description: 'Default 50' })),
})

export const TenantCreate = Type.Object({ id: TenantIdParam })

export const SuspendBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 500, description: 'Named in every refusal of the tenant’s requests' }),
  hide_content: Type.Boolean({
    description: 'true: the gateways stop serving its public content while suspended; false: it stays served',
  }),
})

export const RevokedKeys = Type.Object({ revoked: Count })

export const PinQueueQuery = Type.Object({
  status: Type.Optional(Type.Enum([...PIN_STATES], { description: 'Default: every state' })),
  order: Type.Optional(Type.Enum(['ASC', 'DESC'], { description: 'By the time queued; default ASC (oldest first)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, description: 'Default 50' })),
  pageToken: Type.Optional(Type.String({ description: 'The `next_page_token` of the previous page' })),
})

const QueuedPin = named(
  'AdminPinRequest',
  Type.Object({
    id: Type.String(),
    tenant_id: Type.String(),
    cid: Type.String(),
    name: Type.String(),
    state: Type.Enum([...PIN_STATES]),
    failure: Type.Union([Type.String(), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()]),
    attempts: Count,
    created_at: DateTime,
    lease_expires_at: Type.Union([DateTime, Type.Null()]),
  }),
)

export const PinQueuePage = Type.Object({ pins: Type.Array(QueuedPin), next_page_token: Type.String() })

export const Totals = named(
  'AdminTotals',
  Type.Object({
    stored: Type.Object({
      files: Count,
      logical_bytes: Count,
      contents: Count,
      physical_bytes: Count,
      blocks: Count,
    }),
    pins: Type.Array(
      Type.Object({
        state: Type.Enum([...PIN_STATES]),
        count: Count,
        oldest_created_at: Type.Union([DateTime, Type.Null()]),
      }),
    ),
  }),
)

export function tenantToWire(tenant: TenantRecord): Static<typeof Tenant> {
  return {
    id: tenant.id,
    created_at: tenant.createdAt.toISOString(),
    origin: tenant.origin,
    suspension: tenant.suspension && {
      at: tenant.suspension.at.toISOString(),
      reason: tenant.suspension.reason,
      hide_content: tenant.suspension.hideContent,
    },
  }
}

export function summaryToWire(tenant: TenantSummary): Static<typeof TenantListItem> {
  const { kept } = tenant
  return {
    ...tenantToWire(tenant),
    usage: { files: tenant.usage.files, bytes: tenant.usage.bytes },
    accounting: {
      logical_bytes: kept.logicalBytes,
      contents: kept.contents,
      sole_bytes: kept.soleBytes,
      shared_bytes: kept.sharedBytes,
    },
    limits: limitsToWire(tenant.limits),
  }
}

export function detailToWire(tenant: TenantDetail): Static<typeof TenantDetailObject> {
  return {
    ...tenantToWire(tenant),
    usage: { files: tenant.usage.files, bytes: tenant.usage.bytes },
    pins: tenant.pins,
    api_keys: tenant.apiKeys,
    account: adminAccountToWire(tenant.account),
  }
}

/** A tenant's limits and use as the operator sees them: with the overrides it set. */
export function adminAccountToWire(account: TenantAccount): Static<typeof AdminTenantAccount> {
  return { ...accountToWire(account), overrides: overridesToWire(account.overrides) }
}

export function queuedPinToWire(request: PinRequestRecord): Static<typeof QueuedPin> {
  return {
    id: request.id,
    tenant_id: request.tenantId,
    cid: request.cid,
    name: request.name,
    state: request.state,
    failure: request.failure,
    reason: request.reason,
    attempts: request.attempts,
    created_at: request.createdAt.toISOString(),
    lease_expires_at: request.leaseExpiresAt?.toISOString() ?? null,
  }
}

export function totalsToWire(stored: StoredTotals, pins: PinStateTotal[]): Static<typeof Totals> {
  return {
    stored: {
      files: stored.files,
      logical_bytes: stored.logicalBytes,
      contents: stored.contents,
      physical_bytes: stored.physicalBytes,
      blocks: stored.blocks,
    },
    pins: pins.map((p) => ({
      state: p.state,
      count: p.count,
      oldest_created_at: p.oldestCreatedAt?.toISOString() ?? null,
    })),
  }
}
