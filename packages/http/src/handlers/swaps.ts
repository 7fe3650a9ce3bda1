import type { SwapRecord } from '@pinfold/core'
import Type from 'typebox'
import { okData, okNull, SwapObject } from '../openapi/schemas.js'
import { data } from '../responses.js'
import { defineRoute } from '../router.js'
import { NetworkSchema, named } from '../schema.js'

const swapToWire = (swap: SwapRecord) => ({ mapped_cid: swap.mappedCid, created_at: swap.createdAt.toISOString() })

const params = { network: NetworkSchema }

const SwapInput = named(
  'SwapInput',
  Type.Object({
    swap_cid: Type.Optional(Type.String({ description: 'The CID to serve instead (the SDK sends this)' })),
    swapCid: Type.Optional(Type.String({ description: "The same, in the spelling of Pinata's OpenAPI" })),
  }),
)

export const swapRoutes = [
  defineRoute({
    method: 'PUT',
    path: '/v3/files/:network/swap/:cid',
    auth: 'org:files:write',
    summary: 'Add a swap',
    tags: ['Swaps'],
    request: { params, body: SwapInput },
    responses: okData(SwapObject),
    async handle({ service, actor, signal }, { params, body }) {
      // a missing CID is handed on as it came: the service refuses it in its own words
      const swapCid = (body.swap_cid ?? body.swapCid) as string
      const swap = await service.swaps.add(actor, params.network, params.cid, swapCid, { signal })
      return data(swapToWire(swap))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/files/:network/swap/:cid',
    auth: 'org:files:read',
    summary: 'Swap history of a CID',
    tags: ['Swaps'],
    request: {
      params,
      query: Type.Object({
        domain: Type.Optional(
          Type.String({ description: "Sent by the SDK; a tenant's swaps are the same on all its domains" }),
        ),
      }),
    },
    responses: okData(Type.Array(SwapObject)),
    async handle({ service, actor, signal }, { params }) {
      return data((await service.swaps.history(actor, params.network, params.cid, { signal })).map(swapToWire))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/files/:network/swap/:cid',
    auth: 'org:files:write',
    summary: 'Remove a swap',
    tags: ['Swaps'],
    request: { params },
    responses: okNull('Removed'),
    async handle({ service, actor, signal }, { params }) {
      await service.swaps.remove(actor, params.network, params.cid, { signal })
      return data(null)
    },
  }),
]
