import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './support/server.js'

describe('HTTP layer', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('routing - an unknown path is a JSON 404', async () => {
    const res = await server.api('/v3/nothing-here')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: 'no such route' })
  })

  it('routing - a known path with the wrong method is 405 with Allow', async () => {
    const res = await server.api('/v3/groups/public', { method: 'PATCH' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, GET')
  })

  it('cors - preflights allow the SDK and tus headers, responses expose upload headers', async () => {
    const res = await fetch(`${server.url}/v3/files`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'PATCH' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Upload-Metadata/)
    const get = await server.api('/v3/groups/public', { headers: { origin: 'https://app.example' } })
    expect(get.headers.get('access-control-expose-headers')).toMatch(/upload-cid/)
  })

  it('bridge - a JSON answer goes out in one piece with its Content-Length, not chunked', async () => {
    const res = await server.api('/v3/nothing-here')
    const body = await res.text()
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)))
    expect(res.headers.get('transfer-encoding')).toBeNull()
    expect(JSON.parse(body)).toEqual({ error: 'no such route' })
  })

  it('head - answers like GET without a body', async () => {
    const res = await server.api('/v3/groups/public', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
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
