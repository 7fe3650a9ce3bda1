import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApi, type TestApi } from './support/test-api.js'

describe('HTTP layer', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
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
    const res = await server.fetch(`${server.url}/v3/files`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'PATCH' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Upload-Metadata/)
    const get = await server.api('/v3/groups/public', { headers: { origin: 'https://app.example' } })
    expect(get.headers.get('access-control-expose-headers')).toMatch(/upload-cid/)
  })

  it('head - answers like GET without a body', async () => {
    const res = await server.api('/v3/groups/public', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
  })
})
