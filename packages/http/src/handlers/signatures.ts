import type { SignatureRecord } from '@pinfold/core'
import { readJsonObject } from '../body.js'
import { jsonBody, okData, okNull, ref } from '../openapi/schemas.js'
import { data } from '../responses.js'
import type { RequestContext, Route } from '../router.js'
import { parseNetwork } from '../wire.js'

const signatureToWire = (signature: SignatureRecord) => ({ cid: signature.cid, signature: signature.signature })

async function add({ request, params, service, actor, signal }: RequestContext) {
  const body = await readJsonObject(request)
  const network = parseNetwork(params.network)
  // handed on as they came: the service checks both
  const input = { signature: body.signature as string, address: body.address as string }
  const stored = await service.signatures.add(actor, network, params.cid!, input, { signal })
  return data(signatureToWire(stored))
}

async function get({ params, service, actor, signal }: RequestContext) {
  const signature = await service.signatures.get(actor, parseNetwork(params.network), params.cid!, { signal })
  return data(signatureToWire(signature))
}

async function remove({ params, service, actor, signal }: RequestContext) {
  await service.signatures.remove(actor, parseNetwork(params.network), params.cid!, { signal })
  return data(null)
}

export const signatureRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/files/:network/signature/:cid',
    auth: 'org:files:write',
    summary: 'Add an EIP-712 signature to a CID',
    openapi: {
      tags: ['Signatures'],
      requestBody: jsonBody(ref('SignatureInput')),
      responses: okData(ref('Signature')),
    },
    handle: add,
  },
  {
    method: 'GET',
    path: '/v3/files/:network/signature/:cid',
    auth: 'org:files:read',
    summary: 'Get the signature of a CID',
    openapi: { tags: ['Signatures'], responses: okData(ref('Signature')) },
    handle: get,
  },
  {
    method: 'DELETE',
    path: '/v3/files/:network/signature/:cid',
    auth: 'org:files:write',
    summary: 'Remove the signature of a CID',
    openapi: { tags: ['Signatures'], responses: okNull('Removed') },
    handle: remove,
  },
]
