import { errorBody } from './responses.js'
import { defineRoute, type Route } from './router.js'

/**
 * The Pinata endpoints the `pinata` SDK (2.5.6) calls that Pinfold does not implement; the
 * README's "Not supported" list is this table (`http/test/unsupported-routes.test.ts` holds the
 * two together). Remove an entry when its route is added; until then a route as specific as an
 * entry (`/v3/files/:network/pin_by_cid`, or `/v3/files/public/…`) wins over it, as the real routes
 * come first in the router's table.
 */
export const UNSUPPORTED_PINATA_ENDPOINTS = [
  { method: 'POST', path: '/v3/files/:network/pin_by_cid', feature: 'pin by CID', sdk: 'upload.public.cid()' },
  {
    method: 'GET',
    path: '/v3/files/:network/pin_by_cid',
    feature: 'the pin-by-CID queue',
    sdk: 'files.public.queue()',
  },
  {
    method: 'DELETE',
    path: '/v3/files/:network/pin_by_cid/:id',
    feature: 'cancelling a pin-by-CID request',
    sdk: 'files.public.deletePinRequest()',
  },
  { method: 'POST', path: '/v3/pinata/keys', feature: 'API keys', sdk: 'keys.create()' },
  { method: 'GET', path: '/v3/pinata/keys', feature: 'API keys', sdk: 'keys.list()' },
  { method: 'PUT', path: '/v3/pinata/keys/:key', feature: 'API keys', sdk: 'keys.revoke()' },
  {
    method: 'GET',
    path: '/v3/ipfs/gateway_analytics_top',
    feature: 'gateway analytics',
    sdk: 'analytics.requests / analytics.bandwidth',
  },
  {
    method: 'GET',
    path: '/v3/ipfs/gateway_analytics_time_series',
    feature: 'gateway analytics',
    sdk: 'analytics.summary(), analytics.*.customDates()',
  },
  {
    method: 'GET',
    path: '/v3/data/userPinnedDataTotal',
    feature: 'account usage',
    sdk: 'pinnedFileCount(), totalStorageUsage()',
  },
] as const

/**
 * The table as routes, so a request for one of them wins over a parameter route it would otherwise
 * fall into (`GET /v3/files/public/pin_by_cid` is not the file with id "pin_by_cid") and is never
 * counted as an allowed method of a path. Each answers 404: the server has no such resource, the
 * request was not the server's fault (a 5xx would count against it in monitoring and invite
 * retries), and the message says which Pinata feature is missing.
 */
export const unsupportedRoutes: readonly Route[] = UNSUPPORTED_PINATA_ENDPOINTS.map(({ method, path, feature }) =>
  defineRoute({
    method,
    path,
    auth: 'public',
    summary: `Not supported: ${feature}`,
    tags: [],
    responses: {},
    unsupported: true,
    handle: async ({ request, url }) =>
      errorBody(
        `${unsupportedRequest(request.method, url.pathname)}: Pinfold does not implement this Pinata feature (${feature})`,
        404,
      ),
  }),
)

/** `GET /v3/foo is not supported by Pinfold`, the path cut short: it is the client's own input. */
export function unsupportedRequest(method: string, pathname: string): string {
  const path = pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname
  return `${method} ${path} is not supported by Pinfold`
}
