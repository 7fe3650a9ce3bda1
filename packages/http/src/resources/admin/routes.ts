import type { TenantLimitOverrides } from '@pinfold/core'
import { okData } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { overridesFromWire, TenantLimitOverridesWire } from '../limits/wire.js'
import {
  AdminTenantAccount,
  adminAccountToWire,
  detailToWire,
  PinQueuePage,
  PinQueueQuery,
  queuedPinToWire,
  RevokedKeys,
  SuspendBody,
  summaryToWire,
  Tenant,
  TenantCreate,
  TenantDetailObject,
  TenantIdParam,
  TenantList,
  TenantListQuery,
  Totals,
  tenantToWire,
  totalsToWire,
} from './wire.js'

const tags = ['Admin']
const params = { tenantId: TenantIdParam }

/**
 * The operator's admin API. Every route needs an operator token (`pinfold token --operator`); to any
 * other caller, tenants with every scope included, each path answers the 404 of a path that does
 * not exist (the fetch handler decides that before the route runs).
 */
export const adminRoutes = [
  defineRoute({
    method: 'GET',
    path: '/admin/v1/tenants',
    auth: 'operator',
    summary: 'List tenants with their use',
    tags,
    description: 'By id; `search` matches ids containing it, any case. `total` counts every match.',
    request: { query: TenantListQuery },
    responses: okData(TenantList, 'A page of tenants'),
    async handle({ service, operator, signal }, { query }) {
      const { tenants, total } = await service.admin.listTenants(operator!, query, { signal })
      return data({ tenants: tenants.map(summaryToWire), total })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/v1/tenants',
    auth: 'operator',
    summary: 'Create a tenant',
    tags,
    description:
      'Before its first request (a tenant is otherwise created by its first authenticated request). 409 if it exists.',
    request: { body: TenantCreate },
    responses: okData(Tenant, 'Created', '201'),
    async handle({ service, operator, signal }, { body }) {
      return data(tenantToWire(await service.admin.createTenant(operator!, body.id, { signal })), 201)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/v1/tenants/:tenantId',
    auth: 'operator',
    summary: 'A tenant’s detail',
    tags,
    request: { params },
    responses: okData(TenantDetailObject, 'The tenant, its use, pin requests and API keys'),
    async handle({ service, operator, signal }, { params }) {
      return data(detailToWire(await service.admin.getTenant(operator!, params.tenantId, { signal })))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/v1/tenants/:tenantId/suspend',
    auth: 'operator',
    summary: 'Suspend a tenant',
    tags,
    description:
      'Its tokens and API keys are refused (403 naming the suspension) by every server within seconds; with `hide_content` its public content is no longer served by the gateways. Suspending again replaces the suspension.',
    request: { params, body: SuspendBody },
    responses: okData(Tenant, 'Suspended'),
    async handle({ service, operator, signal }, { params, body }) {
      const tenant = await service.admin.suspend(
        operator!,
        params.tenantId,
        { reason: body.reason, hideContent: body.hide_content },
        { signal },
      )
      return data(tenantToWire(tenant))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/v1/tenants/:tenantId/resume',
    auth: 'operator',
    summary: 'Resume a suspended tenant',
    tags,
    request: { params },
    responses: okData(Tenant, 'Active'),
    async handle({ service, operator, signal }, { params }) {
      return data(tenantToWire(await service.admin.resume(operator!, params.tenantId, { signal })))
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/admin/v1/tenants/:tenantId/limits',
    auth: 'operator',
    summary: 'Set a tenant’s limits',
    tags,
    description:
      'Replaces the tenant’s overrides of the deployment’s default limits (`PINFOLD_QUOTA_*`): each a non-negative integer, or null for no limit; a limit left out takes the default. Enforced from the next request.',
    request: { params, body: TenantLimitOverridesWire },
    responses: okData(AdminTenantAccount, 'The limits as they now apply, the overrides and the use'),
    async handle({ service, operator, signal }, { params, body }) {
      const overrides = overridesFromWire(body) as TenantLimitOverrides
      const account = await service.admin.setLimits(operator!, params.tenantId, overrides, { signal })
      return data(adminAccountToWire(account))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/v1/tenants/:tenantId/keys/revoke',
    auth: 'operator',
    summary: 'Revoke every API key of a tenant',
    tags,
    description: 'Keys it creates afterwards work; suspend the tenant to stop those too.',
    request: { params },
    responses: okData(RevokedKeys, 'How many keys were revoked'),
    async handle({ service, operator, signal }, { params }) {
      return data({ revoked: await service.admin.revokeApiKeys(operator!, params.tenantId, { signal }) })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/v1/pins',
    auth: 'operator',
    summary: 'The pin-by-CID queue across tenants',
    tags,
    request: { query: PinQueueQuery },
    responses: okData(PinQueuePage, 'A page of requests'),
    async handle({ service, operator, signal }, { query }) {
      const page = await service.admin.pinQueue(
        operator!,
        {
          states: query.status === undefined ? undefined : [query.status],
          order: query.order,
          limit: query.limit,
          pageToken: query.pageToken,
        },
        { signal },
      )
      return data({ pins: page.requests.map(queuedPinToWire), next_page_token: page.nextPageToken })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/v1/totals',
    auth: 'operator',
    summary: 'What the deployment stores and queues',
    tags,
    description:
      'The figures `/metrics` exports as `pinfold_stored_*` and `pinfold_pin_requests`: read now (a scan of the records), not cached.',
    responses: okData(Totals, 'Totals'),
    async handle({ service, signal }) {
      const [stored, pins] = await Promise.all([
        service.totals.stored({ signal }),
        service.totals.pinStates({ signal }),
      ])
      return data(totalsToWire(stored, pins))
    },
  }),
]
