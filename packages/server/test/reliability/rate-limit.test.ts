import type { FetchHandlerOptions } from '@pinfold/http'
import type { NodeHandlerOptions } from '@pinfold/http-node'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterEach, describe, expect, it } from 'vitest'
import { readConfig } from '../../src/config.js'
import { serveOverHttp } from '../support/over-http.js'
import { startTestServer, type TestServer } from '../support/server.js'

// Per-token budgets and the clientIp option are tested in process in packages/http/test.
describe('rate limit - over HTTP', () => {
  let api: TestApi | undefined
  let server: TestServer | undefined
  afterEach(async () => {
    await api?.close()
    await server?.close()
    api = undefined
    server = undefined
  })

  /** The handler with these options behind the node bridge: the client address is the socket's. */
  async function start(options: Pick<FetchHandlerOptions, 'rateLimit'>, bridge: NodeHandlerOptions = {}) {
    api = await serveOverHttp(await startTestApi({ storage: 'memory', embedder: null, ...options }), bridge)
    return api.url
  }

  it('per address - public and gateway requests count too, from the socket address (not a header)', async () => {
    const url = await start({ rateLimit: { perIp: { limit: 2, windowMs: 60_000 } } })
    const spoof = { 'x-forwarded-for': '1.2.3.4' }
    expect((await fetch(`${url}/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`)).status).toBe(404)
    expect((await fetch(`${url}/v3/files/public`, { headers: spoof })).status).toBe(401)
    const third = await fetch(`${url}/v3/files/public`, { headers: { 'x-forwarded-for': '5.6.7.8' } })
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBe('30')
  })

  it('behind one trusted proxy - the address is the X-Forwarded-For entry the proxy appended, not what the client wrote', async () => {
    const url = await start({ rateLimit: { perIp: { limit: 1, windowMs: 60_000 } } }, { trustProxy: 1 })
    const status = async (forwardedFor?: string) => {
      const res = await fetch(`${url}/v3/files/public`, {
        headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      })
      await res.arrayBuffer()
      return res.status
    }
    expect(await status('203.0.113.1')).toBe(401)
    expect(await status('203.0.113.2')).toBe(401) // another client behind the same proxy
    // the client's own claim comes first; the proxy appended the address it really came from
    expect(await status('198.51.100.9, 203.0.113.1')).toBe(429)
    expect(await status()).toBe(401) // no header: the socket's address, a budget of its own
  })

  it('config - PINFOLD_RATE_LIMIT_PER_TOKEN / _PER_IP are requests per minute; unset is off', async () => {
    expect(readConfig({ PINFOLD_RATE_LIMIT_PER_TOKEN: '100', PINFOLD_RATE_LIMIT_PER_IP: '7' }).rateLimit).toEqual({
      perToken: { limit: 100, windowMs: 60_000 },
      perIp: { limit: 7, windowMs: 60_000 },
    })
    expect(readConfig({}).rateLimit).toEqual({ perToken: undefined, perIp: undefined })
    expect(() => readConfig({ PINFOLD_RATE_LIMIT_PER_IP: 'lots' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    )
  })

  it('server - the configured per-address limit applies to `pinfold serve`', async () => {
    server = await startTestServer({ PINFOLD_RATE_LIMIT_PER_IP: '2' })
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      const res = await server.api('/v3/data/testAuthentication')
      statuses.push(res.status)
      await res.arrayBuffer()
    }
    expect(statuses).toEqual([200, 200, 429])
  })
})
