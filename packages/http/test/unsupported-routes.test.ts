import { readFile } from 'node:fs/promises'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRouter } from '../src/router.js'
import { routes } from '../src/routes.js'
import { UNSUPPORTED_PINATA_ENDPOINTS } from '../src/unsupported-routes.js'

/** `/v3/files/:network/pin_by_cid/:id` → a concrete path the pattern matches. */
const concrete = (path: string) => path.replace(':network', 'public').replace(/:[A-Za-z]+/g, 'some-id')
const literals = (path: string) => path.split('/').filter((s) => s !== '' && !s.startsWith(':')).length

describe('unsupported Pinata endpoints and unknown routes', () => {
  let api: TestApi
  beforeAll(async () => {
    api = await startTestApi()
  })
  afterAll(() => api.close())

  it('the README lists exactly the endpoints the server answers as unsupported', async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8')
    const section = /<!-- unsupported-endpoints:start -->([\s\S]*?)<!-- unsupported-endpoints:end -->/.exec(readme)
    expect(section, 'README.md has the unsupported-endpoints markers').not.toBeNull()
    const listed = [...section![1]!.matchAll(/^\| `([A-Z]+ \/\S+)`/gm)].map((m) => m[1])
    expect(listed).toEqual(UNSUPPORTED_PINATA_ENDPOINTS.map(({ method, path }) => `${method} ${path}`))
  })

  it('no listed endpoint has a route of its own (remove it from the table and the README once it does)', () => {
    const route = createRouter(routes)
    // a listed endpoint may only fall into a less specific route (GET /v3/files/:network/:id)
    const implemented = UNSUPPORTED_PINATA_ENDPOINTS.filter(({ method, path }) => {
      const match = route(method, concrete(path))
      return match !== undefined && 'route' in match && literals(match.route.path) >= literals(path)
    }).map(({ method, path }) => `${method} ${path}`)
    expect(implemented).toEqual([])
  })

  it.skipIf(UNSUPPORTED_PINATA_ENDPOINTS.length === 0).each(UNSUPPORTED_PINATA_ENDPOINTS)(
    '$method $path answers 404 naming the route and the Pinata feature',
    async ({ method, path, feature }) => {
      const res = await api.api(concrete(path), { method })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({
        error: `${method} ${concrete(path)} is not supported by Pinfold: Pinfold does not implement this Pinata feature (${feature})`,
      })
    },
  )

  it('an unknown route names itself as unsupported, without its query string', async () => {
    const res = await api.api('/v3/foo/bar?X-Signature=secret')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: 'GET /v3/foo/bar is not supported by Pinfold' })
    const legacy = await api.api('/pinning/hashPinPolicy', { method: 'PUT', body: '{}' })
    expect(await legacy.json()).toEqual({ error: 'PUT /pinning/hashPinPolicy is not supported by Pinfold' })
  })

  it('a very long unknown path is cut short in the message', async () => {
    const res = await api.api(`/v3/${'x'.repeat(5000)}`)
    expect(res.status).toBe(404)
    const { error } = (await res.json()) as { error: string }
    expect(error.length).toBeLessThan(300)
    expect(error).toMatch(/^GET \/v3\/x+… is not supported by Pinfold$/)
  })

  it('a known path with another method is a 405 naming the route and the methods it answers', async () => {
    const res = await api.api('/v3/groups/public', { method: 'PATCH' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, GET')
    expect(await res.json()).toEqual({
      error: 'PATCH /v3/groups/public is not supported by Pinfold: this path answers POST, GET',
    })
  })
})
