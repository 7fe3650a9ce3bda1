import { jsonResponse, okData } from '../../openapi/responses.js'
import { data, json } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { VectorMutation, VectorQuery, VectorQueryResult, vectorQueryResultToWire } from './wire.js'

/** The two vector mutations answer `{ success: true }` unwrapped (spec §1); `status` mirrors Pinata's reply. */
const succeeded = () => json({ success: true, status: true })

export const vectorRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v3/vectorize/files/:fileId',
    auth: 'org:write',
    summary: 'Vectorize a file',
    tags: ['Vectors'],
    responses: { '200': jsonResponse('Vectorized', VectorMutation) },
    async handle({ service, actor, signal }, { params }) {
      await service.vectors.vectorize(actor, params.fileId, { signal })
      return succeeded()
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v3/vectorize/files/:fileId',
    auth: 'org:write',
    summary: 'Delete file vectors',
    tags: ['Vectors'],
    responses: { '200': jsonResponse('Deleted', VectorMutation) },
    async handle({ service, actor, signal }, { params }) {
      await service.vectors.deleteVectors(actor, params.fileId, { signal })
      return succeeded()
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v3/vectorize/groups/:groupId/query',
    auth: 'org:write',
    summary: 'Query file vectors',
    tags: ['Vectors'],
    // The SDK sends this JSON with no Content-Type; the body is read whatever its type.
    request: { body: VectorQuery },
    responses: okData(VectorQueryResult),
    async handle({ service, actor, signal }, { params, body }) {
      const result = await service.vectors.query(
        actor,
        params.groupId,
        { text: body.text, limit: body.limit },
        { signal },
      )
      return data(vectorQueryResultToWire(result))
    },
  }),
]
