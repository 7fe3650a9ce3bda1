import { startTestApi, TEST_SECRET, type TestApi } from '@pinfold/testing/test-api'
import { SignJWT, UnsecuredJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

describe('bearer token authentication', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  const expect401 = async (auth: string | null, headers: Record<string, string> = {}) => {
    const res = await server.api('/v3/groups/public', { auth, headers })
    expect(res.status).toBe(401)
    const body = (await res.json()) as { error: string }
    expect(typeof body.error).toBe('string')
    return body.error
  }

  it('auth - a missing Authorization header is 401', async () => {
    expect(await expect401(null)).toMatch(/Bearer/)
  })

  it('auth - a non-Bearer scheme is 401', async () => {
    await expect401(null, { authorization: 'Basic YWxpY2U6cHc=' })
  })

  it('auth - an empty bearer token (as the SDK sends for signed URLs) is 401', async () => {
    await expect401(null, { authorization: 'Bearer ' })
  })

  it('auth - a malformed token is 401', async () => {
    expect(await expect401('not.a.jwt')).toBe('token is malformed')
  })

  it('auth - a token signed with another secret is 401', async () => {
    const forged = await new SignJWT({ scope: 'org:groups:read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-0123456789'))
    expect(await expect401(forged)).toBe('token signature is invalid')
  })

  it('auth - an expired token is 401', async () => {
    const expired = await new SignJWT({ scope: 'org:groups:read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(TEST_SECRET))
    expect(await expect401(expired)).toBe('token has expired')
  })

  it('auth - an unsigned alg:none token is 401', async () => {
    const unsecured = new UnsecuredJWT({ scope: 'org:groups:read' }).setSubject('alice').encode()
    await expect401(unsecured)
  })

  it('auth - a token with another HMAC algorithm is 401', async () => {
    const hs512 = await new SignJWT({ scope: 'org:groups:read' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('alice')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_SECRET.repeat(2)))
    expect(await expect401(hs512)).toBe('token algorithm is not allowed')
  })

  it('auth - a token without sub is 401', async () => {
    const anonymous = await new SignJWT({ scope: 'org:groups:read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_SECRET))
    expect(await expect401(anonymous)).toBe('token claim check failed: sub')
  })

  it('auth - a token without exp is 401: it would be valid forever', async () => {
    const forever = await new SignJWT({ scope: 'org:groups:read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setIssuedAt()
      .sign(new TextEncoder().encode(TEST_SECRET))
    expect(await expect401(forever)).toBe('token has no expiry: an exp claim is required')
  })

  it('scopes - a token lacking the route scope is 403', async () => {
    const readOnly = await server.token({ scopes: ['org:files:read'] })
    const res = await server.api('/v3/groups/public', { auth: readOnly })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ error: 'this token lacks the org:groups:read scope' })
  })

  it('scopes - a write scope implies its read scope', async () => {
    const writer = await server.token({ scopes: ['org:groups:write'] })
    expect((await server.api('/v3/groups/public', { auth: writer })).status).toBe(200)
  })

  it('scopes - a read scope does not allow writes', async () => {
    const reader = await server.token({ scopes: ['org:groups:read'] })
    const res = await server.api('/v3/groups/public', { method: 'POST', body: '{"name":"x"}', auth: reader })
    expect(res.status).toBe(403)
  })

  for (const path of ['/data/testAuthentication', '/v3/data/testAuthentication']) {
    it(`testAuthentication - ${path} greets a valid token and refuses others`, async () => {
      const ok = await server.api(path, { auth: await server.token({ scopes: [] }) })
      expect(ok.status).toBe(200)
      expect(await ok.json()).toEqual({ message: 'Congratulations! You are communicating with the Pinata API!' })
      expect((await server.api(path, { auth: 'garbage' })).status).toBe(401)
    })
  }
})
