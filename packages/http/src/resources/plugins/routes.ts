import Type from 'typebox'
import { okData } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { GatewayPlugin } from './wire.js'

export const pluginRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v3/gateways/plugins/marketplace',
    auth: 'org:gateways:read',
    summary: 'List marketplace plugins',
    tags: ['Gateways'],
    responses: okData(Type.Array(GatewayPlugin)),
    async handle({ service, signal }) {
      return data(await service.plugins.list({ signal }))
    },
  }),
]
