import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, mintToken, SCOPES } from '@pinfold/core'
import { createFetchHandler, type FetchHandlerOptions } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import { afterEach, describe, expect, it } from 'vitest'
import { readConfig } from '../../src/config.js'
import { startTestServer, TEST_SECRET, type TestServer } from '../support/server.js'
import { signatureSpellings } from '../support/token-spellings.js'

describe('rate limit - over HTTP', () => {
  let close: (() => Promise<void>) | undefined
  let server: TestServer | undefined
  afterEach(async () => {
    await close?.()
    await server?.close()
    close = undefined
    server = undefined
  })

  async function start(options: Partial<FetchHandlerOptions>) {
    const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
    const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: TEST_SECRET }), ...options })
    const http = createServer(createNodeHandler(handler))
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    close = () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve())
        http.closeAllConnections()
      })
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  }

  const bearer = async (org: string) => ({
    authorization: `Bearer ${await mintToken(TEST_SECRET, { sub: 'u', org, scopes: SCOPES, expiresIn: '1h' })}`,
  })

  it('per token - the request beyond the budget is 429 with Retry-After; other tokens are unaffected', async () => {
    const url = await start({ rateLimit: { perToken: { limit: 3, windowMs: 60_000 } } })
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
    const url = await start({ rateLimit: { perToken: { limit: 3, windowMs: 60_000 } } })
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

  it('per address - public and gateway requests count too, from the socket address (not a header)', async () => {
    const url = await start({ rateLimit: { perIp: { limit: 2, windowMs: 60_000 } } })
    const spoof = { 'x-forwarded-for': '1.2.3.4' }
    expect((await fetch(`${url}/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`)).status).toBe(404)
    expect((await fetch(`${url}/v3/files/public`, { headers: spoof })).status).toBe(401)
    const third = await fetch(`${url}/v3/files/public`, { headers: { 'x-forwarded-for': '5.6.7.8' } })
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBe('30')
  })

  it('clientIp option - a host framework supplies the address', async () => {
    const url = await start({
      rateLimit: { perIp: { limit: 1, windowMs: 60_000 } },
      clientIp: (request) => request.headers.get('x-test-ip') ?? undefined,
    })
    expect((await fetch(`${url}/ipfs/x`, { headers: { 'x-test-ip': 'a' } })).status).toBe(400)
    expect((await fetch(`${url}/ipfs/x`, { headers: { 'x-test-ip': 'b' } })).status).toBe(400)
    expect((await fetch(`${url}/ipfs/x`, { headers: { 'x-test-ip': 'a' } })).status).toBe(429)
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
