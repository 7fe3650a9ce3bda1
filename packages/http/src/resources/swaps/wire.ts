import type { SwapRecord } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import { DateTime, named } from '../../schema.js'

export const SwapObject = named('Swap', Type.Object({ mapped_cid: Type.String(), created_at: DateTime }))

export const SwapInput = named(
  'SwapInput',
  Type.Object({
    swap_cid: Type.Optional(Type.String({ description: 'The CID to serve instead (the SDK sends this)' })),
    swapCid: Type.Optional(Type.String({ description: "The same, in the spelling of Pinata's OpenAPI" })),
  }),
)

export const SwapHistoryQuery = Type.Object({
  domain: Type.Optional(
    Type.String({ description: "Sent by the SDK; a tenant's swaps are the same on all its domains" }),
  ),
})

export function swapToWire(swap: SwapRecord): Static<typeof SwapObject> {
  return { mapped_cid: swap.mappedCid, created_at: swap.createdAt.toISOString() }
}

/** A swap as the legacy `/v3/ipfs/swap/{cid}` answers it (`pinata-web3`'s `SwapCidResponse`). */
export const LegacySwapObject = named('LegacySwap', Type.Object({ mappedCid: Type.String(), createdAt: DateTime }))

export function legacySwapToWire(swap: SwapRecord): Static<typeof LegacySwapObject> {
  return { mappedCid: swap.mappedCid, createdAt: swap.createdAt.toISOString() }
}
