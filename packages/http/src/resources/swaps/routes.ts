import Type from 'typebox'
import { okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { NetworkSchema } from '../../schema.js'
import { LegacySwapObject, legacySwapToWire, SwapHistoryQuery, SwapInput, SwapObject, swapToWire } from './wire.js'

const params = { network: NetworkSchema }

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
    request: { params, query: SwapHistoryQuery },
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
  // The same swaps on the legacy API's paths (`pinata-web3`: `gateways.swapCid` and friends): the
  // public network, answers in `data` with camelCase names.
  defineRoute({
    method: 'PUT',
    path: '/v3/ipfs/swap/:cid',
    auth: 'org:files:write',
    summary: 'Add a swap (legacy)',
    tags: ['Swaps'],
    request: { body: SwapInput },
    responses: okData(LegacySwapObject),
    async handle({ service, actor, signal }, { params, body }) {
      const swapCid = (body.swapCid ?? body.swap_cid) as string
      return data(legacySwapToWire(await service.swaps.add(actor, 'public', params.cid, swapCid, { signal })))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/ipfs/swap/:cid',
    auth: 'org:files:read',
    summary: 'Swap history of a CID (legacy)',
    tags: ['Swaps'],
    request: { query: SwapHistoryQuery },
    responses: okData(Type.Array(LegacySwapObject)),
    async handle({ service, actor, signal }, { params }) {
      return data((await service.swaps.history(actor, 'public', params.cid, { signal })).map(legacySwapToWire))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/ipfs/swap/:cid',
    auth: 'org:files:write',
    summary: 'Remove a swap (legacy)',
    tags: ['Swaps'],
    responses: okNull('Removed'),
    async handle({ service, actor, signal }, { params }) {
      await service.swaps.remove(actor, 'public', params.cid, { signal })
      return data(null)
    },
  }),
]
