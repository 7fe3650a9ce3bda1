import { okData, ref } from '../openapi/schemas.js'
import { data } from '../responses.js'
import type { RequestContext, Route } from '../router.js'

async function marketplace({ service, signal }: RequestContext) {
  return data(await service.plugins.list({ signal }))
}

export const pluginRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v3/gateways/plugins/marketplace',
    auth: 'org:gateways:read',
    summary: 'List marketplace plugins',
    openapi: { tags: ['Gateways'], responses: okData({ type: 'array', items: ref('GatewayPlugin') }) },
    handle: marketplace,
  },
]
