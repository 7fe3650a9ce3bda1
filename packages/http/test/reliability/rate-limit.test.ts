import { mintToken, SCOPES } from '@pinfold/core'
import { startTestApi, TEST_SECRET, type TestApi } from '@pinfold/testing/test-api'
import { afterEach, describe, expect, it } from 'vitest'
import type { FetchHandlerOptions } from '../../src/index.js'
import { signatureSpellings } from '../support/token-spellings.js'

// Per client address (the socket's, which only the node bridge knows) and the server's
// PINFOLD_RATE_LIMIT_* settings are tested over a real server in packages/server/test.
describe('rate limit - over HTTP', () => {
  let server: TestApi | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  async function start(options: Pick<FetchHandlerOptions, 'rateLimit' | 'clientIp'>) {
    server = await startTestApi({ storage: 'memory', embedder: null, ...options })
    return { url: server.url, fetch: server.fetch }
  }

  const bearer = async (org: string) => ({
    authorization: `Bearer ${await mintToken(TEST_SECRET, { sub: 'u', org, scopes: SCOPES, expiresIn: '1h' })}`,
  })

  it('per token - the request beyond the budget is 429 with Retry-After; other tokens are unaffected', async () => {
    const { url, fetch } = await start({ rateLimit: { perToken: { limit: 3, windowMs: 60_000 } } })
    const alice = await bearer('acme')
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${url}/v3/files/public`, { headers: alice })
      statuses.push(res.status)
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
        expect(await res.json()).toEqual({ error: expect.stringMatching(/too many requests/) })
      } else await res.arrayBuffer()
    }
    expect(statuses).toEqual([200, 200, 200, 429])
    expect((await fetch(`${url}/v3/files/public`, { headers: await bearer('globex') })).status).toBe(200)
  })

  it('per token - other spellings of one signature and fresh tokens of one user share its budget', async () => {
    const { url, fetch } = await start({ rateLimit: { perToken: { limit: 3, windowMs: 60_000 } } })
    const token = await mintToken(TEST_SECRET, { sub: 'u', org: 'acme', scopes: SCOPES, expiresIn: '1h' })
    const spellings = signatureSpellings(token)
    expect(spellings.length).toBeGreaterThan(3)
    const statuses: number[] = []
    for (const spelling of spellings) {
      const res = await fetch(`${url}/v3/files/public`, { headers: { authorization: `Bearer ${spelling}` } })
      statuses.push(res.status)
      await res.arrayBuffer()
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200])
    expect(new Set(statuses.slice(3))).toEqual(new Set([429]))
    const later = await mintToken(TEST_SECRET, { sub: 'u', org: 'acme', scopes: SCOPES, expiresIn: '2h' })
    expect((await fetch(`${url}/v3/files/public`, { headers: { authorization: `Bearer ${later}` } })).status).toBe(429)
  })

  it('clientIp option - a host framework supplies the address', async () => {
    const { url, fetch } = await start({
      rateLimit: { perIp: { limit: 1, windowMs: 60_000 } },
      clientIp: (request) => request.headers.get('x-test-ip') ?? undefined,
    })
    expect((await fetch(`${url}/ipfs/x`, { headers: { 'x-test-ip': 'a' } })).status).toBe(400)
    expect((await fetch(`${url}/ipfs/x`, { headers: { 'x-test-ip': 'b' } })).status).toBe(400)
    expect((await fetch(`${url}/ipfs/x`, { headers: { 'x-test-ip': 'a' } })).status).toBe(429)
  })
})
