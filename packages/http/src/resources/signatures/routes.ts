import { okData, okNull } from '../../openapi/responses.js'
import { data } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { NetworkSchema } from '../../schema.js'
import { SignatureInput, SignatureObject, signatureToWire } from './wire.js'

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
]
