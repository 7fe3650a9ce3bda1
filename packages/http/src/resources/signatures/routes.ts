import { okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { NetworkSchema } from '../../schema.js'
import { LegacySignatureInput, SignatureInput, SignatureObject, signatureToWire } from './wire.js'

const params = { network: NetworkSchema }

export const signatureRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/files/:network/signature/:cid',
    auth: 'org:files:write',
    summary: 'Add an EIP-712 signature to a CID',
    tags: ['Signatures'],
    request: { params, body: SignatureInput },
    responses: okData(SignatureObject),
    async handle({ service, actor, signal }, { params, body }) {
      const stored = await service.signatures.add(
        actor,
        params.network,
        params.cid,
        {
          signature: body.signature,
          address: body.address,
        },
        { signal },
      )
      return data(signatureToWire(stored))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/files/:network/signature/:cid',
    auth: 'org:files:read',
    summary: 'Get the signature of a CID',
    tags: ['Signatures'],
    request: { params },
    responses: okData(SignatureObject),
    async handle({ service, actor, signal }, { params }) {
      return data(signatureToWire(await service.signatures.get(actor, params.network, params.cid, { signal })))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/files/:network/signature/:cid',
    auth: 'org:files:write',
    summary: 'Remove the signature of a CID',
    tags: ['Signatures'],
    request: { params },
    responses: okNull('Removed'),
    async handle({ service, actor, signal }, { params }) {
      await service.signatures.remove(actor, params.network, params.cid, { signal })
      return data(null)
    },
  }),
  // The same signatures on the legacy API's paths (`pinata-web3`'s `signatures`): the public network.
  defineRoute({
    method: 'POST',
    path: '/v3/ipfs/signature/:cid',
    auth: 'org:files:write',
    summary: 'Add an EIP-712 signature to a CID (legacy)',
    tags: ['Signatures'],
    description:
      'As `POST /v3/files/public/signature/{cid}`. `pinata-web3` sends no `address`; the signature is verified against the address that signed, so it is required (400 without it).',
    request: { body: LegacySignatureInput },
    responses: okData(SignatureObject),
    async handle({ service, actor, signal }, { params, body }) {
      const input = { signature: body.signature, address: body.address as string }
      return data(signatureToWire(await service.signatures.add(actor, 'public', params.cid, input, { signal })))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v3/ipfs/signature/:cid',
    auth: 'org:files:read',
    summary: 'Get the signature of a CID (legacy)',
    tags: ['Signatures'],
    responses: okData(SignatureObject),
    async handle({ service, actor, signal }, { params }) {
      return data(signatureToWire(await service.signatures.get(actor, 'public', params.cid, { signal })))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/ipfs/signature/:cid',
    auth: 'org:files:write',
    summary: 'Remove the signature of a CID (legacy)',
    tags: ['Signatures'],
    responses: okNull('Removed'),
    async handle({ service, actor, signal }, { params }) {
      await service.signatures.remove(actor, 'public', params.cid, { signal })
      return data(null)
    },
  }),
]
