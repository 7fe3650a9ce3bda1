import { readJsonObject } from '../body.js'
import { jsonBody, jsonResponse, okData, ref } from '../openapi/schemas.js'
import { data, json } from '../responses.js'
import type { RequestContext, Route } from '../router.js'

/** The two vector mutations answer `{ success: true }` unwrapped (spec §1); `status` mirrors Pinata's reply. */
const succeeded = () => json({ success: true, status: true })

async function vectorize({ params, service, actor, signal }: RequestContext) {
  await service.vectors.vectorize(actor, params.fileId!, { signal })
  return succeeded()
}

async function deleteVectors({ params, service, actor, signal }: RequestContext) {
  await service.vectors.deleteVectors(actor, params.fileId!, { signal })
  return succeeded()
}

async function query({ request, params, service, actor, signal }: RequestContext) {
  // The SDK sends this JSON with no Content-Type; readJsonObject ignores the type.
  const body = await readJsonObject(request)
  // handed on as they came: the service checks both
  const input = { text: body.text as string, limit: body.limit as number | undefined }
  const result = await service.vectors.query(actor, params.groupId!, input, { signal })
  return data({
    count: result.count,
    matches: result.matches.map((match) => ({ file_id: match.fileId, cid: match.cid, score: match.score })),
  })
}

export const vectorRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/vectorize/files/:fileId',
    auth: 'org:write',
    summary: 'Vectorize a file',
    openapi: { tags: ['Vectors'], responses: { '200': jsonResponse('Vectorized', ref('VectorMutation')) } },
    handle: vectorize,
  },
  {
    method: 'DELETE',
    path: '/v3/vectorize/files/:fileId',
    auth: 'org:write',
    summary: 'Delete file vectors',
    openapi: { tags: ['Vectors'], responses: { '200': jsonResponse('Deleted', ref('VectorMutation')) } },
    handle: deleteVectors,
  },
  {
    method: 'POST',
    path: '/v3/vectorize/groups/:groupId/query',
    auth: 'org:write',
    summary: 'Query file vectors',
    openapi: {
      tags: ['Vectors'],
      requestBody: jsonBody(ref('VectorQuery')),
      responses: okData(ref('VectorQueryResult')),
    },
    handle: query,
  },
]
