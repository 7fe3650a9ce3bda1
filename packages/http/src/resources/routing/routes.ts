import { gatewayMultiaddr, gatewayProviderId, isPinfoldError, TRANSPORT_IPFS_GATEWAY_HTTP } from '@pinfold/core'
import Type, { type Static } from 'typebox'
import type { IpfsPeer } from '../../ipfs-peer.js'
import { errorResponse } from '../../openapi/responses.js'
import { errorBody, json } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { PeerRecord, Providers } from './wire.js'

const TRANSPORT_BITSWAP = 'transport-bitswap'
const NDJSON = 'application/x-ndjson'

/** Multiaddrs as a routing answer carries them: without the peer id, which the record names already. */
const withoutPeerId = (addr: string) => addr.replace(/\/p2p\/[^/]+$/, '')

function providersOf(gatewayUrl: string, peer: IpfsPeer | undefined): Static<typeof PeerRecord>[] {
  const http = {
    Schema: 'peer' as const,
    ID: gatewayProviderId(gatewayUrl),
    Addrs: [gatewayMultiaddr(gatewayUrl)],
    Protocols: [TRANSPORT_IPFS_GATEWAY_HTTP],
  }
  if (!peer) return [http]
  const bitswap = {
    Schema: 'peer' as const,
    ID: peer.peerId,
    Addrs: [...new Set(peer.addrs.map(withoutPeerId))],
    Protocols: [TRANSPORT_BITSWAP],
  }
  return [bitswap, http]
}

export const routingRoutes = [
  defineRoute({
    method: 'GET',
    path: '/routing/v1/providers/:cid',
    auth: 'public',
    summary: 'Providers of a CID (Delegated Routing V1)',
    tags: ['Routing'],
    description:
      'The Delegated Routing V1 HTTP API of the IPFS specs (routing/http-routing-v1): for a block of public ' +
      'content this deployment holds, this deployment itself: its libp2p node over bitswap (when it runs one) and its ' +
      'trustless gateway over HTTP. `Accept: application/x-ndjson` streams one record per line. 404 for anything ' +
      'it does not hold publicly: private content is never listed.',
    request: {
      query: Type.Object({
        'filter-protocols': Type.Optional(
          Type.String({
            description:
              'IPIP-484: comma-separated protocols; only providers speaking one of them are listed (404 when none is left)',
          }),
        ),
      }),
    },
    responses: {
      '200': {
        description: 'This deployment provides the CID',
        content: { 'application/json': { schema: Providers }, [NDJSON]: { schema: PeerRecord } },
      },
      '400': errorResponse('Not a CID'),
      '404': errorResponse('Not held here as public content'),
    },
    async handle({ service, signal, publicUrl, request, ipfsPeer }, { params, query }) {
      try {
        // held publicly ⇔ the public gateway would serve it: the same lookup, without reading the block
        await service.gateway.resolve({ kind: 'public' }, params.cid, { signal })
      } catch (error) {
        // a CID a deny rule blocks is not provided here either: no provider record points at it
        if (isPinfoldError(error) && (error.code === 'NOT_FOUND' || error.code === 'BLOCKED')) {
          return errorBody('no provider known for this CID', 404, { 'access-control-allow-origin': '*' })
        }
        throw error
      }
      const wanted = query['filter-protocols']?.split(',').map((name) => name.trim())
      const providers = providersOf(publicUrl, ipfsPeer).filter(
        (record) => !wanted || record.Protocols.some((protocol) => wanted.includes(protocol)),
      )
      if (providers.length === 0) {
        return errorBody('no provider speaks the protocols asked for', 404, { 'access-control-allow-origin': '*' })
      }
      // browsers on any origin may ask a router (the spec's CORS section)
      const headers = { 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=60', vary: 'accept' }
      if (acceptsNdjson(request)) {
        const body = providers.map((record) => `${JSON.stringify(record)}\n`).join('')
        return new Response(body, { status: 200, headers: { ...headers, 'content-type': NDJSON } })
      }
      return json({ Providers: providers }, 200, headers)
    },
  }),
]

/** The spec's streaming is opt-in: only a client that names `application/x-ndjson` gets it. */
function acceptsNdjson(request: Request): boolean {
  const accept = request.headers.get('accept') ?? ''
  return accept.split(',').some((part) => part.split(';')[0]!.trim().toLowerCase() === NDJSON)
}
