import { errorBody } from './responses.js'
import { defineRoute, type Route } from './router.js'

/** A Pinata endpoint Pinfold does not serve: its route pattern, the Pinata feature and the SDK call. */
export interface UnsupportedEndpoint {
  method: Route['method']
  path: string
  feature: string
  sdk: string
}

/**
 * The Pinata endpoints the `pinata` SDK (2.5.6) calls that Pinfold does not implement; the
 * README's "Not supported" list is this table (`http/test/unsupported-routes.test.ts` holds the
 * two together). Remove an entry when its route is added; until then a route as specific as an
 * entry (`/v3/pinata/keys`, or `/v3/pinata/:x`) wins over it, as the real routes
 * come first in the router's table.
 */
export const UNSUPPORTED_PINATA_ENDPOINTS: readonly UnsupportedEndpoint[] = [
  // empty: Pinfold answers every endpoint the SDK 2.5.6 calls (API keys, analytics and usage were the last)
]

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
