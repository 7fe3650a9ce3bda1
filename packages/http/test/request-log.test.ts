import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, mintToken, SCOPES } from '@pinfold/core'
import { TEST_SECRET } from '@pinfold/testing/test-api'
import { describe, expect, it } from 'vitest'
import { createFetchHandler, jsonLinesLogger, type RequestLogEntry } from '../src/index.js'

function setup() {
  const service = createFileService({
    records: createMemoryRecordStore(),
    blobs: createMemoryBlobStore(),
    signingSecret: TEST_SECRET,
  })
  const entries: { level: string; entry: RequestLogEntry }[] = []
  const handler = createFetchHandler(service, {
    auth: createTokenVerifier({ secret: TEST_SECRET }),
    logger: {
      info: (entry) => entries.push({ level: 'info', entry }),
      error: (entry) => entries.push({ level: 'error', entry }),
    },
  })
  const token = mintToken(TEST_SECRET, { sub: 'alice', org: 'acme', scopes: SCOPES, expiresIn: '1h' })
  return { handler, entries, token }
}

describe('request log', () => {
  it('request log - one entry per request with id, method, route pattern, tenant, status and duration', async () => {
    const { handler, entries, token } = await setup()
    const res = await handler(
      new Request('http://api.test/v3/files/public/some-id', {
        headers: { authorization: `Bearer ${await token}`, 'x-request-id': 'req-123' },
      }),
    )
    expect(res.status).toBe(404)
    expect(res.headers.get('x-request-id')).toBe('req-123')
    expect(entries).toEqual([
      {
        level: 'info',
        entry: {
          request_id: 'req-123',
          method: 'GET',
          route: '/v3/files/:network/:id',
          status: 404,
          duration_ms: expect.any(Number),
          tenant: 'acme',
        },
      },
    ])
  })

  it('request log - generates a request id when none (or an unsafe one) is given', async () => {
    const { handler, entries } = await setup()
    const res = await handler(new Request('http://api.test/healthz', { headers: { 'x-request-id': 'a"b forged {}' } }))
    const id = res.headers.get('x-request-id')
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(entries[0]!.entry).toMatchObject({ request_id: id, route: '/healthz', status: 200 })
    expect(entries[0]!.entry).not.toHaveProperty('tenant')
    await handler(new Request('http://api.test/nowhere'))
    expect(entries[1]!.entry).toMatchObject({ route: null, status: 404 })
  })

  it('request log - never holds tokens, signatures, payment headers or raw paths', async () => {
    const { handler, entries, token } = await setup()
    const bearer = await token
    const lines: string[] = []
    const printed = jsonLinesLogger((line) => lines.push(line))
    const secrets = ['sig-SECRET-value', 'pay-SECRET-value', 'tus-SECRET-token', bearer]
    const requests = [
      new Request('http://api.test/v3/data/testAuthentication', { headers: { authorization: `Bearer ${bearer}` } }),
      new Request('http://api.test/v3/data/testAuthentication', { headers: { authorization: 'Bearer not-a-token' } }),
      new Request('http://api.test/files/bafkqaaa?X-Expires=60&X-Signature=sig-SECRET-value'),
      new Request('http://api.test/v1/retrieve/private/bafkqaaa', { headers: { 'x-payment': 'pay-SECRET-value' } }),
      new Request('http://api.test/v3/files/upload-id/tus-SECRET-token', { method: 'HEAD' }),
    ]
    for (const request of requests) await handler(request)
    expect(entries).toHaveLength(requests.length)
    for (const { entry } of entries) printed.info(entry)
    const everything = `${JSON.stringify(entries)}\n${lines.join('')}`
    for (const secret of secrets) expect(everything).not.toContain(secret)
    expect(entries.map((e) => e.entry.route)).toEqual([
      '/v3/data/testAuthentication',
      '/v3/data/testAuthentication',
      '/files/:cid',
      '/v1/retrieve/private/:cid',
      '/v3/files/:id/:token',
    ])
    expect(entries.map((e) => e.entry.status)).toEqual([200, 401, expect.any(Number), expect.any(Number), 404])
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', message: 'request', tenant: 'acme', status: 200 })
  })
})
