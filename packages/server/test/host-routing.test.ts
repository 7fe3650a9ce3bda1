import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestWithHost } from './support/raw-http.js'
import { startTestServer, type TestServer } from './support/server.js'

/**
 * Issue 16 finding 11: routing follows the request line's path only. A Host header carrying a
 * path, query, fragment or credentials once became part of the URL the router read.
 */
describe('Host header and routing', () => {
  let server: TestServer
  let port: string
  beforeAll(async () => {
    server = await startTestServer()
    port = new URL(server.url).port
  })
  afterAll(() => server.close())

  it('Host - path, query, fragment or userinfo characters are refused with a JSON 400', async () => {
    for (const host of [
      `127.0.0.1:${port}/healthz?`,
      `127.0.0.1:${port}/healthz#`,
      `127.0.0.1:${port}?x=`,
      `user@127.0.0.1:${port}`,
      `127.0.0.1:${port}\\healthz`,
      `127.0.0.1:port`,
      `127.0.0.1:${port}:1`,
      '[::1',
      'exa mple.com',
    ]) {
      const res = await requestWithHost(server.url, host, '/v3/files/public')
      expect(res.status, host).toBe(400)
      expect(JSON.parse(res.body), host).toEqual({ error: expect.stringMatching(/Host/) })
    }
  })

  it('Host - well-formed names, IP literals and ports route by the request path', async () => {
    for (const host of [`127.0.0.1:${port}`, '127.0.0.1', `[::1]:${port}`, 'files.example.com', 'LOCALHOST:80']) {
      expect((await requestWithHost(server.url, host, '/healthz')).status, host).toBe(200)
      // the files listing wants a token: the answer is the route's, not /healthz's
      expect((await requestWithHost(server.url, host, '/v3/files/public')).status, host).toBe(401)
    }
  })

  it('request target - an absolute-form target routes by its path; the authority still comes from Host', async () => {
    const res = await requestWithHost(server.url, `127.0.0.1:${port}`, 'http://elsewhere.example/v3/files/public')
    expect(res.status).toBe(401)
    expect((await requestWithHost(server.url, `127.0.0.1:${port}`, 'http://elsewhere.example/healthz')).status).toBe(
      200,
    )
    const star = await requestWithHost(server.url, `127.0.0.1:${port}`, '*')
    expect(star.status).toBe(400)
    expect(JSON.parse(star.body)).toEqual({ error: expect.any(String) })
  })
})
