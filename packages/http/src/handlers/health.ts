import Type from 'typebox'
import { ErrorObject, Health, jsonResponse, Readiness } from '../openapi/schemas.js'
import { json } from '../responses.js'
import { defineRoute, type RequestContext } from '../router.js'

/** Liveness: the process answers. Touches nothing. */
async function healthz() {
  return json({ status: 'ok' }, 200, { 'cache-control': 'no-store' })
}

/** A CID no store holds (the empty identity CID): reading it is the cheapest real round trip. */
const PROBE_CID = 'bafkqaaa'
const PROBE_BLOB = 'pinfold-readiness-probe/none'

/**
 * Readiness: one cheap read of each store. 503 names the store that failed (never the error,
 * which may carry connection details).
 */
async function readyz({ service, signal }: RequestContext) {
  const probe = (run: () => Promise<unknown>) =>
    run().then(
      () => 'ok' as const,
      () => 'failed' as const,
    )
  const [records, blobs] = await Promise.all([
    probe(() => service.records.getContent(PROBE_CID, { signal })),
    probe(() => service.blobs.head(PROBE_BLOB, { signal })),
  ])
  const ready = records === 'ok' && blobs === 'ok'
  return json({ status: ready ? 'ok' : 'unavailable', checks: { records, blobs } }, ready ? 200 : 503, {
    'cache-control': 'no-store',
  })
}

export const healthRoutes = [
  defineRoute({
    method: 'GET',
    path: '/healthz',
    auth: 'public',
    summary: 'Liveness probe',
    tags: ['Operations'],
    responses: { '200': jsonResponse('The process is up', Health) },
    handle: healthz,
  }),
  defineRoute({
    method: 'GET',
    path: '/readyz',
    auth: 'public',
    summary: 'Readiness probe (checks the record and blob stores)',
    tags: ['Operations'],
    responses: {
      '200': jsonResponse('Both stores answer', Readiness),
      '503': jsonResponse(
        'A store failed (named in `checks`), or the server is shutting down',
        Type.Union([Readiness, ErrorObject]),
      ),
    },
    handle: readyz,
  }),
]
