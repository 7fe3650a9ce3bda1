import type { SwapRecord } from '@pinfold/core'
import { readJsonObject } from '../body.js'
import { jsonBody, okData, okNull, ref } from '../openapi/schemas.js'
import { data } from '../responses.js'
import type { RequestContext, Route } from '../router.js'
import { parseNetwork } from '../wire.js'

const swapToWire = (swap: SwapRecord) => ({ mapped_cid: swap.mappedCid, created_at: swap.createdAt.toISOString() })

async function add({ request, params, service, actor, signal }: RequestContext) {
  const body = await readJsonObject(request)
  // handed on as it came: the service refuses anything but a CID
  const swapCid = (body.swap_cid ?? body.swapCid) as string
  const swap = await service.swaps.add(actor, parseNetwork(params.network), params.cid!, swapCid, { signal })
  return data(swapToWire(swap))
}

/** `?domain=` (sent by the SDK) is accepted; a tenant's swaps are the same on all its domains. */
async function history({ params, service, actor, signal }: RequestContext) {
  const history = await service.swaps.history(actor, parseNetwork(params.network), params.cid!, { signal })
  return data(history.map(swapToWire))
}

async function remove({ params, service, actor, signal }: RequestContext) {
  await service.swaps.remove(actor, parseNetwork(params.network), params.cid!, { signal })
  return data(null)
}

export const swapRoutes: Route[] = [
  {
    method: 'PUT',
    path: '/v3/files/:network/swap/:cid',
    auth: 'org:files:write',
    summary: 'Add a swap',
    openapi: { tags: ['Swaps'], requestBody: jsonBody(ref('SwapInput')), responses: okData(ref('Swap')) },
    handle: add,
  },
  {
    method: 'GET',
    path: '/v3/files/:network/swap/:cid',
    auth: 'org:files:read',
    summary: 'Swap history of a CID',
    openapi: { tags: ['Swaps'], responses: okData({ type: 'array', items: ref('Swap') }) },
    handle: history,
  },
  {
    method: 'DELETE',
    path: '/v3/files/:network/swap/:cid',
    auth: 'org:files:write',
    summary: 'Remove a swap',
    openapi: { tags: ['Swaps'], responses: okNull('Removed') },
    handle: remove,
  },
]
