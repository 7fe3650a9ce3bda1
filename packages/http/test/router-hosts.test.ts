import { describe, expect, it } from 'vitest'
import type { RequestHost } from '../src/gateway/request-host.js'
import { tenantHostRoutes } from '../src/gateway/routes.js'
import { createRouter } from '../src/router.js'
import { routes } from '../src/routes.js'

/**
 * The router matches a route on the request's host as well as its path: the gateway's routes are
 * part of the table, each answering on its own hosts, and the API's answer on the API's host only.
 */
const route = createRouter([...routes, ...tenantHostRoutes])
const API: RequestHost = { kind: 'api' }
const SUBDOMAIN: RequestHost = { kind: 'subdomain', cid: 'bafkqaaa' }
const TENANT: RequestHost = { kind: 'tenant', tenantId: 'acme' }

const matched = (method: string, pathname: string, host: RequestHost) => {
  const match = route(method, pathname, host)
  return match && 'route' in match ? { path: match.route.path, params: match.params } : match
}

describe('router - hosts and rest-of-path parameters', () => {
  it('/ipfs/… - the path gateway on the API and tenant hosts, its rest of path undecoded', () => {
    for (const host of [API, TENANT]) {
      expect(matched('GET', '/ipfs/bafy/a%20b/c', host)).toEqual({
        path: '/ipfs/:path*',
        params: { path: 'bafy/a%20b/c' },
      })
      expect(matched('HEAD', '/ipfs', host)).toEqual({ path: '/ipfs/:path*', params: { path: '' } })
    }
    // the guard reads the path as written: the router alone would ignore the empty segment
    expect(matched('GET', '//ipfs/bafy', API)).toBeUndefined()
  })

  it('a method other than GET on a gateway route is the gateway 405', () => {
    expect(route('POST', '/ipfs/bafy', API)).toEqual({ allowed: ['GET'], gateway: true })
    expect(route('DELETE', '/anything', SUBDOMAIN)).toEqual({ allowed: ['GET'], gateway: true })
    expect(route('PUT', '/files/bafy', TENANT)).toEqual({ allowed: ['GET'], gateway: true })
    // the API's own private link route keeps the API's 405
    expect(route('PUT', '/files/bafy', API)).toEqual({ allowed: ['GET'], gateway: false })
  })

  it("the subdomain host - every path is its CID's, and nothing of the API", () => {
    expect(matched('GET', '/', SUBDOMAIN)).toEqual({ path: '/:path*', params: { path: '' } })
    expect(matched('GET', '/v3/files/public', SUBDOMAIN)).toEqual({
      path: '/:path*',
      params: { path: 'v3/files/public' },
    })
    expect(matched('GET', '/', API)).toBeUndefined()
  })

  it('a tenant host - its links, /ipfs, and every other path its DNSLink website; the API answers on the API host alone', () => {
    expect(matched('GET', '/files/bafy', TENANT)).toEqual({ path: '/files/:cid*', params: { cid: 'bafy' } })
    expect(matched('GET', '/files/bafy', API)).toEqual({ path: '/files/:cid', params: { cid: 'bafy' } })
    const site = (path: string) => ({ path: '/:path*', params: { path } })
    expect(matched('GET', '/files/bafy/', TENANT)).toEqual(site('files/bafy'))
    expect(matched('GET', '/v3/files/public', TENANT)).toEqual(site('v3/files/public'))
    expect(matched('GET', '/healthz', TENANT)).toEqual(site('healthz'))
    expect(matched('GET', '/healthz', API)).toEqual({ path: '/healthz', params: {} })
  })
})
