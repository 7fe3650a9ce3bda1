import Type from 'typebox'
import { named } from '../../schema.js'

/** A provider in the routing API's Peer Schema (its field names are capitalised, as the spec writes them). */
export const PeerRecord = named(
  'RoutingPeerRecord',
  Type.Object({
    Schema: Type.Literal('peer'),
    ID: Type.String({ description: 'Peer id (base58btc multihash)' }),
    Addrs: Type.Array(Type.String(), { description: 'Multiaddrs' }),
    Protocols: Type.Array(Type.String(), { description: '`transport-bitswap`, `transport-ipfs-gateway-http`' }),
  }),
)

export const Providers = named('RoutingProviders', Type.Object({ Providers: Type.Array(PeerRecord) }))
