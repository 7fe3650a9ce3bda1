import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './support/server.js'

// Routing, CORS and HEAD are the handler's: tested in process in packages/http/test/routing.test.ts.

describe('HTTP layer - the node:http bridge', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('bridge - a JSON answer goes out in one piece with its Content-Length, not chunked', async () => {
    const res = await server.api('/v3/nothing-here')
    const body = await res.text()
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)))
    expect(res.headers.get('transfer-encoding')).toBeNull()
    expect(JSON.parse(body)).toEqual({ error: 'GET /v3/nothing-here is not supported by Pinfold' })
  })

  it('bridge - a client that disconnects mid-upload leaves no blob behind', async () => {
    const before = server.blobCount()
    const boundary = 'abort-boundary'
    const token = await server.token()
    await new Promise<void>((resolve) => {
      const req = request(`${server.url}/v3/files`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      })
      req.on('error', () => resolve())
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`)
      req.write(Buffer.alloc(512 * 1024, 1))
      setTimeout(() => {
        req.destroy()
        resolve()
      }, 100)
    })
    // the server notices the closed socket asynchronously
    for (let i = 0; i < 50 && server.blobCount() !== before; i++) await new Promise((r) => setTimeout(r, 20))
    expect(server.blobCount()).toBe(before)
    expect((await server.api('/v3/groups/public')).status).toBe(200)
  })

  it('bridge - a malformed Host header is a 400, not a crash', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/v3/groups/public`, { headers: { host: 'bad host name' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(400)
  })
})
