import { jsonResponse, ref } from '../openapi/schemas.js'
import { json } from '../responses.js'
import type { RequestContext, Route } from '../router.js'

/** Liveness: the process answers. Touches nothing. */
async function healthz() {
  return json({ status: 'ok' }, 200, { 'cache-control': 'no-store' })
}

/**
 * Readiness: one cheap read of each store. 503 names the store that failed (never the error,
 * which may carry connection details).
 */
async function readyz({ service, signal }: RequestContext) {
  const { ok, checks } = await service.health.check({ signal })
  return json({ status: ok ? 'ok' : 'unavailable', checks }, ok ? 200 : 503, { 'cache-control': 'no-store' })
}

export const healthRoutes: Route[] = [
  {
    method: 'GET',
    path: '/healthz',
    auth: 'public',
    summary: 'Liveness probe',
    openapi: { tags: ['Operations'], responses: { '200': jsonResponse('The process is up', ref('Health')) } },
    handle: healthz,
  },
  {
    method: 'GET',
    path: '/readyz',
    auth: 'public',
    summary: 'Readiness probe (checks the record and blob stores)',
    openapi: {
      tags: ['Operations'],
      responses: {
        '200': jsonResponse('Both stores answer', ref('Readiness')),
        '503': jsonResponse('A store failed (named in `checks`), or the server is shutting down', {
          oneOf: [ref('Readiness'), ref('Error')],
        }),
      },
    },
    handle: readyz,
  },
]
