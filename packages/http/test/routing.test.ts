import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

describe('HTTP layer', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  // unknown paths and wrong methods: unsupported-routes.test.ts

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
