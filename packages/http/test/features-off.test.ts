import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, mintToken, SCOPES } from '@pinfold/core'
import { TEST_SECRET } from '@pinfold/testing/test-api'
import { describe, expect, it } from 'vitest'
import { createFetchHandler } from '../src/index.js'

const CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'

/** `[feature, method, path, body]`: every route whose operation needs an optional feature. */
const ROUTES: [string, string, string, unknown][] = [
  ['signed upload URLs', 'POST', '/v3/files/sign', { expires: 60 }],
  ['download links', 'POST', '/v3/files/sign', { url: `/files/${CID}`, expires: 60, method: 'GET' }],
  ['download links', 'POST', '/v3/files/private/download_link', { url: `/files/${CID}`, expires: 60 }],
  ['download links', 'GET', `/files/${CID}?X-Signature=AAAA`, undefined],
  ['x402 payment instructions', 'POST', '/v3/x402/payment_instructions', { name: 'x' }],
  ['x402 paid retrieval', 'GET', `/v1/retrieve/private/${CID}`, undefined],
  ['API keys', 'POST', '/v3/pinata/keys', { keyName: 'k', permissions: { admin: true } }],
  ['semantic vectors', 'POST', '/v3/vectorize/files/some-file', undefined],
  ['semantic vectors', 'POST', '/v3/vectorize/groups/some-group/query', { text: 'cats' }],
]

describe('features off over HTTP', () => {
  // the token verifier has a secret; the service has none, nor payments, nor an embedder
  const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
  const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: TEST_SECRET }) })
  const token = mintToken(TEST_SECRET, { sub: 'alice', org: 'acme', scopes: SCOPES, expiresIn: '1h' })

  it.each(ROUTES)('%s - %s %s answers 503 naming what is missing', async (feature, method, path, body) => {
    const res = await handler(
      new Request(`http://api.test${path}`, {
        method,
        headers: { authorization: `Bearer ${await token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    expect(res.status).toBe(503)
    expect(((await res.json()) as { error: string }).error).toMatch(
      new RegExp(`^${feature} (is|are) unavailable: no .* configured \\(createFileService options`),
    )
  })

  it('API keys - a key JWT reaching a server without them is 401, never trusted as a plain token', async () => {
    const keyed = createFileService({
      records: createMemoryRecordStore(),
      blobs: createMemoryBlobStore(),
      signingSecret: TEST_SECRET,
    })
    const { jwt } = await keyed.apiKeys.create(
      { tenantId: 'acme', userId: 'alice', scopes: new Set(SCOPES) },
      { name: 'k', permissions: { admin: true } },
    )
    const res = await handler(
      new Request('http://api.test/v3/groups/public', { headers: { authorization: `Bearer ${jwt}` } }),
    )
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: 'API keys are not enabled on this server' })
  })
})
