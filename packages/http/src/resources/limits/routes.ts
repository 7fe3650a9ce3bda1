import { okData } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { accountToWire, TenantAccountWire } from './wire.js'

/**
 * A tenant's own limits and use, beside Pinata's usage answers (`/data/userPinnedDataTotal`). The
 * operator sets the limits (admin API, `service.quotas.setTenantLimits`); a tenant only reads them.
 */
export const limitRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v3/data/limits',
    auth: 'org:files:read',
    summary: "The account's limits and what it uses of them",
    tags: ['Usage'],
    description:
      'Limits are the deployment’s defaults with the operator’s overrides for this account; `null` is no limit. ' +
      'Bytes under deduplication: a content only this account references is its own (`sole_bytes`); one other ' +
      'accounts reference too counts in full in each one’s `shared_bytes`. Storage limits count `logical_bytes`.',
    responses: okData(TenantAccountWire),
    async handle({ service, actor, signal }) {
      return data(accountToWire(await service.quotas.account(actor, { signal })))
    },
  }),
]
