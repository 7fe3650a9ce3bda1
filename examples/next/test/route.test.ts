import { describeMountedPinfold } from '@pinfold/testing/mounted-pinfold'
import { describe, expect, it, vi } from 'vitest'

const route = await import('../src/app/pinfold/[...path]/route.js')
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

describe('Next.js route handler example', () => {
  it('route - exports a handler for every method and opts out of the Edge runtime and caching', () => {
    for (const method of METHODS) {
      expect(typeof route[method], method).toBe('function')
    }
    expect(route.runtime).toBe('nodejs')
    expect(route.dynamic).toBe('force-dynamic')
  })
})

// Next.js calls the route's export named for the request's method with a standard Request and sends
// back the Response it returns; so does `send`. No Next.js server (or install) is needed to exercise
// exactly what Next would run.
describeMountedPinfold('the Next.js route handler example', {
  basePath: '/pinfold',
  start: async (secret) => {
    vi.stubEnv('PINFOLD_AUTH_SECRET', secret)
    return {
      origin: 'http://localhost:3000',
      send: (request) => route[request.method as (typeof METHODS)[number]](request),
      close: async () => {
        vi.unstubAllEnvs()
      },
    }
  },
})
