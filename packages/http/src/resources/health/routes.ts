import Type from 'typebox'
import { ErrorObject, jsonResponse } from '../../openapi/responses.js'
import { json } from '../../responses.js'
import { defineRoute, type RequestContext } from '../../router.js'
import { Health, healthToWire, Readiness } from './wire.js'

/** Liveness: the process answers. Touches nothing; reports the embedded IPFS node when there is one. */
async function healthz({ ipfsPeer }: RequestContext) {
  return json(healthToWire(ipfsPeer), 200, { 'cache-control': 'no-store' })
}

/**
 * Readiness: one cheap read of each store. 503 names the store that failed (never the error,
 * which may carry connection details).
 */
async function readyz({ service, signal }: RequestContext) {
  const { ok, checks, denylists } = await service.health.check({ signal })
  return json({ status: ok ? 'ok' : 'unavailable', checks, ...(denylists && { denylists }) }, ok ? 200 : 503, {
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
