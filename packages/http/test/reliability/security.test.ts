import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createTokenVerifier } from '@pinfold/core'
import { startTestApi, type TestApi, upload } from '@pinfold/testing/test-api'
import { createLocalJWKSet, exportJWK, exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Security properties beyond `auth.test.ts`: algorithm confusion against a JWKS-configured
 * verifier, and the headers that keep user content from running scripts on the API's origin.
 */

async function rejection(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (err: { code?: string }) => err.code,
  )
}

describe('JWT - algorithm confusion with a JWKS verifier', () => {
  let keys: Awaited<ReturnType<typeof generateKeyPair>>
  let verifier: ReturnType<typeof createTokenVerifier>
  beforeAll(async () => {
    keys = await generateKeyPair('RS256', { extractable: true })
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256' }
    verifier = createTokenVerifier({ keys: createLocalJWKSet({ keys: [jwk] }) })
  })

  it('verify - an RS256 token from the key set is accepted (the control)', async () => {
    const token = await new SignJWT({ org: 'acme' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('alice')
      .setExpirationTime('1h')
      .sign(keys.privateKey)
    expect((await verifier.verify(token)).tenantId).toBe('acme')
  })

  it('verify - an HS256 token whose secret is the public key (PEM or JWK) is refused', async () => {
    const pem = await exportSPKI(keys.publicKey)
    const jwkText = JSON.stringify(await exportJWK(keys.publicKey))
    for (const secret of [pem, jwkText]) {
      const forged = await new SignJWT({ org: 'acme' })
        .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
        .setSubject('alice')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret))
      expect(await rejection(verifier.verify(forged))).toBe('UNAUTHENTICATED')
    }
  })

  it('verify - alg none is refused by a JWKS verifier too', async () => {
    const unsigned = new UnsecuredJWT({ org: 'acme' }).setSubject('alice').encode()
    expect(await rejection(verifier.verify(unsigned))).toBe('UNAUTHENTICATED')
  })

  it('verify - an HS256 verifier refuses an RS256 token, whoever signed it', async () => {
    const hs = createTokenVerifier({ secret: 'pinfold-test-secret-0123456789abcdef0123456789' })
    const token = await new SignJWT({ org: 'acme' })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('alice')
      .setExpirationTime('1h')
      .sign(keys.privateKey)
    expect(await rejection(hs.verify(token))).toBe('UNAUTHENTICATED')
  })
})

describe('JWT - a JWKS-verified token without exp is refused over HTTP', () => {
  let keys: Awaited<ReturnType<typeof generateKeyPair>>
  let jwks: Server
  let server: TestApi
  beforeAll(async () => {
    keys = await generateKeyPair('ES256', { extractable: true })
    const body = JSON.stringify({ keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' }] })
    jwks = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body))
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve))
    const { port } = jwks.address() as AddressInfo
    server = await startTestApi({ jwksUrl: `http://127.0.0.1:${port}/jwks.json` })
  })
  afterAll(async () => {
    await server?.close()
    await new Promise((resolve) => jwks?.close(resolve))
  })

  const issued = (expires: boolean) => {
    const jwt = new SignJWT({ org: 'acme', scope: 'org:files:read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setSubject('alice')
      .setIssuedAt()
    return (expires ? jwt.setExpirationTime('5m') : jwt).sign(keys.privateKey)
  }

  it('GET /v3/files/public - with exp a token of the key set is accepted (the control)', async () => {
    expect((await server.api('/v3/files/public', { auth: await issued(true) })).status).toBe(200)
  })

  it('GET /v3/files/public - without exp the same token is 401 JSON: it would be valid forever', async () => {
    const res = await server.api('/v3/files/public', { auth: await issued(false) })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: 'token has no expiry: an exp claim is required' })
  })
})

describe('gateway - user content never runs scripts on the API origin', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server?.close())

  const html = '<!doctype html><script>fetch("/v3/files/private")</script>'

  it('GET /ipfs/{cid} - an HTML file is served sandboxed (CSP sandbox, nosniff)', async () => {
    const { body } = await upload(server, { bytes: html, name: 'evil.html', type: 'text/html' }, { network: 'public' })
    const res = await server.fetch(`${server.url}/ipfs/${body.data.cid}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toMatch(/\bsandbox\b/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    await res.arrayBuffer()
  })

  it('GET /files/{cid} - a private HTML file opened through a download link is sandboxed too', async () => {
    const { body } = await upload(server, { bytes: html, name: 'evil.html', type: 'text/html' }, { network: 'private' })
    const link = await server.api('/v3/files/private/download_link', {
      method: 'POST',
      body: JSON.stringify({ url: `/files/${body.data.cid}`, expires: 60 }),
    })
    const url = new URL(((await link.json()) as { data: string }).data)
    const res = await server.fetch(`${server.url}${url.pathname}${url.search}`, { redirect: 'manual' })
    await res.arrayBuffer()
    if (res.status === 302) {
      // blob stores that presign (S3) serve the bytes from their own origin, never the API's
      expect(new URL(res.headers.get('location')!).origin).not.toBe(new URL(server.url).origin)
      return
    }
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toMatch(/\bsandbox\b/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
