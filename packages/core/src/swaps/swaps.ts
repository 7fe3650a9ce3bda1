import { invalid, notFound } from '@pinfold/interface'
import { heldCids } from '../common/held-cids.js'
import { tenantEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import type { SwapOperations } from './api.js'

/** What the swap operations use of the service. */
export type SwapSettings = Pick<ServiceContext, 'records' | 'clock'>

/**
 * Hot swaps: inside a tenant and network, requests for a CID are answered with another CID's
 * content. Both CIDs must be held by the tenant on that network when the swap is made. Chains
 * resolve (a → b → c serves c); a swap that would close a cycle is a `CONFLICT`.
 *
 * Where swaps apply: only on the tenant's own gateway (its active custom domains), as Pinata's hot
 * swaps apply to an account's dedicated gateway. The shared `/ipfs/` gateway never swaps: there a
 * CID always means its own bytes, or any tenant holding the same bytes could redirect it for
 * everyone. Swaps change deserialized responses only: `?format=raw|car` always carry the
 * requested CID's own verifiable blocks.
 */
export function createSwapOperations(ctx: SwapSettings): SwapOperations {
  const held = heldCids(ctx)

  return {
    async add(actor, network, cid, swapCid, options) {
      if (typeof swapCid !== 'string' || swapCid === '') {
        throw invalid('swap_cid must be a CID')
      }
      const original = await held.require(actor.tenantId, network, cid, 'CID', options)
      const target = await held.require(actor.tenantId, network, swapCid, 'swap target CID', options)
      return ctx.records.gateway.putSwap(
        {
          tenantId: actor.tenantId,
          network,
          cid: original.cid,
          mappedCid: target.cid,
          createdAt: ctx.clock.now(),
        },
        {
          ...options,
          events: [
            tenantEvent(actor, {
              type: 'swap.added',
              target: { kind: 'swap', id: original.cid },
              data: { cid: original.cid, swapCid: target.cid, network },
            }),
          ],
        },
      )
    },

    async history(actor, network, cid, options) {
      const spelling = await held.spelling(actor.tenantId, network, cid, options)
      const history = await ctx.records.gateway.listSwapHistory(actor.tenantId, network, spelling, options)
      if (history.length === 0) throw notFound('swap history')
      return history
    },

    async remove(actor, network, cid, options) {
      const spelling = await held.spelling(actor.tenantId, network, cid, options)
      const event = tenantEvent(actor, {
        type: 'swap.removed',
        target: { kind: 'swap', id: spelling },
        data: { cid: spelling, network },
      })
      if (!(await ctx.records.gateway.deleteSwap(actor.tenantId, network, spelling, { ...options, events: [event] }))) {
        throw notFound('swap')
      }
    },
  }
}
