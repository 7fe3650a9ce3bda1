import {
  type CallOptions,
  conflict,
  invalid,
  notFound,
  type PinRequestState,
  type StorageUsage,
  type TenantRecord,
  type TenantUsage,
} from '@pinfold/interface'
import type { TrustedKeys } from '../api-keys/trusted-keys.js'
import { createOperatorTokens } from '../auth/operator-tokens.js'
import { decodePageToken, nextPageToken } from '../common/pagination.js'
import { operatorEvent } from '../events/new-event.js'
import type { QuotaOperations } from '../quotas/api.js'
import { applyOverrides } from '../quotas/limits.js'
import type { ServiceContext } from '../service/context.js'
import type { AdminOperations, TenantDetail } from './api.js'
import type { TenantDirectory } from './tenant-directory.js'

/** Tenants or pin requests per page of the admin API, by default and at most. */
export const ADMIN_PAGE_DEFAULT = 50
export const ADMIN_PAGE_MAX = 500
/** The deepest `offset` of the tenant list (a store walks what it skips). */
const MAX_OFFSET = 100_000
const MAX_TENANT_ID_CHARS = 200
const MAX_REASON_CHARS = 500

export type AdminSettings = Pick<ServiceContext, 'records' | 'clock' | 'features' | 'quotaDefaults'> & {
  directory: TenantDirectory
  /** Forgotten when the operator revokes a tenant's keys, so the revocation applies at once. */
  trustedKeys: TrustedKeys
  /** Each tenant's limits and use: the admin API reads and sets them through the quota feature. */
  quotas: QuotaOperations
}

/**
 * The operator's view of the deployment: the tenant registry with each tenant's use, suspension,
 * key revocation, and the pin queue across tenants. Operator tokens are verified under a key only
 * the server's secret derives (`auth/operator-tokens.ts`).
 */
export function createAdminOperations(ctx: AdminSettings): AdminOperations {
  const tokens = ctx.features.derive('operators', ({ signingSecret }) => createOperatorTokens(signingSecret))

  async function existing(tenantId: unknown, options?: CallOptions): Promise<TenantRecord> {
    const tenant = await ctx.records.tenants.getTenant(checkTenantId(tenantId), options)
    if (!tenant) throw notFound('tenant')
    return tenant
  }

  return {
    authenticate: async (token) => tokens().verify(token),

    async listTenants(_operator, query, options) {
      const limit = pageLimit(query.limit)
      const offset = query.offset ?? 0
      if (!Number.isSafeInteger(offset) || offset < 0 || offset > MAX_OFFSET) {
        throw invalid(`offset must be an integer from 0 to ${MAX_OFFSET}`)
      }
      if (query.status !== undefined && query.status !== 'active' && query.status !== 'suspended') {
        throw invalid('status must be active or suspended')
      }
      if (
        query.search !== undefined &&
        (typeof query.search !== 'string' || query.search.length > MAX_TENANT_ID_CHARS)
      ) {
        throw invalid(`search must be text of at most ${MAX_TENANT_ID_CHARS} characters`)
      }
      const suspended = query.status === undefined ? undefined : query.status === 'suspended'
      const page = await ctx.records.tenants.listTenants(
        { search: query.search || undefined, suspended },
        { offset, limit },
        options,
      )
      // two reads of one row each per tenant: the kept figures and the overrides (no counting)
      const tenants = await Promise.all(
        page.items.map(async (tenant) => {
          const [kept, overrides] = await Promise.all([
            ctx.records.accounts.keptUsage(tenant.id, options),
            ctx.records.accounts.getLimits(tenant.id, options),
          ])
          return { ...tenant, usage: storageUse(kept), kept, limits: applyOverrides(ctx.quotaDefaults, overrides) }
        }),
      )
      return { tenants, total: page.total }
    },

    async getTenant(_operator, tenantId, options) {
      const tenant = await existing(tenantId, options)
      const [account, counts, keys, active] = await Promise.all([
        ctx.quotas.tenantAccount(tenant.id, options),
        Promise.all(
          PIN_STATES.map((state) => ctx.records.pinRequests.countPinRequests(tenant.id, { states: [state] }, options)),
        ),
        ctx.records.apiKeys.listApiKeys(tenant.id, {}, { offset: 0, limit: 1 }, options),
        ctx.records.apiKeys.listApiKeys(tenant.id, { revoked: false }, { offset: 0, limit: 1 }, options),
      ])
      const pins = Object.fromEntries(PIN_STATES.map((state, i) => [state, counts[i]!])) as TenantDetail['pins']
      const usage = storageUse(account.usage)
      return { ...tenant, usage, pins, apiKeys: { total: keys.total, active: active.total }, account }
    },

    async setLimits(operator, tenantId, overrides, options) {
      const tenant = await existing(tenantId, options)
      const event = operatorEvent(operator, tenant.id, {
        type: 'tenant.limits_set',
        target: { kind: 'tenant', id: tenant.id },
        data: { limits: overrides },
      })
      return ctx.quotas.setTenantLimits(tenant.id, overrides, { ...options, events: [event] })
    },

    async createTenant(operator, tenantId, options) {
      const id = checkTenantId(tenantId)
      const event = operatorEvent(operator, id, { type: 'tenant.created', target: { kind: 'tenant', id } })
      const { tenant, created } = await ctx.records.tenants.registerTenant(
        { id, createdAt: ctx.clock.now(), origin: 'admin', suspension: null },
        { ...options, events: [event] },
      )
      if (!created) throw conflict(`tenant ${id} exists already`)
      ctx.directory.remember(tenant)
      return tenant
    },

    async suspend(operator, tenantId, input, options) {
      const reason = typeof input?.reason === 'string' ? input.reason.trim() : ''
      if (reason === '' || reason.length > MAX_REASON_CHARS) {
        throw invalid(`reason must be a non-empty text of at most ${MAX_REASON_CHARS} characters`)
      }
      if (typeof input.hideContent !== 'boolean') throw invalid('hideContent must be true or false')
      const id = (await existing(tenantId, options)).id
      const suspension = { at: ctx.clock.now(), reason, hideContent: input.hideContent }
      const event = operatorEvent(operator, id, {
        type: 'tenant.suspended',
        target: { kind: 'tenant', id },
        data: { reason, hideContent: input.hideContent },
      })
      const tenant = await ctx.records.tenants.setSuspension(id, suspension, { ...options, events: [event] })
      if (!tenant) throw notFound('tenant')
      ctx.directory.remember(tenant)
      return tenant
    },

    async resume(operator, tenantId, options) {
      const id = (await existing(tenantId, options)).id
      const event = operatorEvent(operator, id, { type: 'tenant.resumed', target: { kind: 'tenant', id } })
      const tenant = await ctx.records.tenants.setSuspension(id, null, { ...options, events: [event] })
      if (!tenant) throw notFound('tenant')
      ctx.directory.remember(tenant)
      return tenant
    },

    async revokeApiKeys(operator, tenantId, options) {
      const id = (await existing(tenantId, options)).id
      // one entry for the sweep: the keys are the tenant's, each listed there as revoked
      const event = operatorEvent(operator, id, {
        type: 'key.revoked',
        target: { kind: 'tenant', id },
        data: { all: true },
      })
      const revoked = await ctx.records.apiKeys.revokeTenantApiKeys(id, ctx.clock.now(), {
        ...options,
        events: [event],
      })
      ctx.trustedKeys.revoked()
      return revoked
    },

    async pinQueue(_operator, query, options) {
      const limit = pageLimit(query.limit)
      const states = query.states
      if (states !== undefined && !states.every((s: PinRequestState) => PIN_STATES.includes(s))) {
        throw invalid(`status must be one of ${PIN_STATES.join(', ')}`)
      }
      if (query.order !== undefined && query.order !== 'ASC' && query.order !== 'DESC') {
        throw invalid('order must be ASC or DESC')
      }
      const after = query.pageToken ? decodePageToken(query.pageToken) : undefined
      // request ids are UUIDs: a token naming anything else is not one this server issued
      if (after && !UUID.test(after.id)) throw invalid('pageToken is not a token this server issued')
      const page = await ctx.records.pinRequests.listPinQueue(
        { states },
        { limit, order: query.order ?? 'ASC', after },
        options,
      )
      return { requests: page.items, nextPageToken: nextPageToken(page.items, page.hasMore) }
    },
  }
}

/** Every state of a pin request, in the order a request goes through them. */
const PIN_STATES: readonly PinRequestState[] = ['queued', 'retrieving', 'pinned', 'failed']

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function pageLimit(limit: number | undefined): number {
  const value = limit ?? ADMIN_PAGE_DEFAULT
  if (!Number.isSafeInteger(value) || value < 1 || value > ADMIN_PAGE_MAX) {
    throw invalid(`limit must be an integer from 1 to ${ADMIN_PAGE_MAX}`)
  }
  return value
}

/** A tenant id as tokens carry it (`org`): non-empty text without control characters. */
function checkTenantId(value: unknown): string {
  const control = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  if (typeof value !== 'string' || value === '' || value.length > MAX_TENANT_ID_CHARS || control(value)) {
    throw invalid(`tenant id must be 1 to ${MAX_TENANT_ID_CHARS} characters, without control characters`)
  }
  return value
}

/** A tenant's kept figures as the list shows them: its files and the sum of their sizes. */
function storageUse(usage: Pick<TenantUsage, 'files' | 'logicalBytes'>): StorageUsage {
  return { files: usage.files, bytes: usage.logicalBytes }
}
