import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withConsole } from '../../src/console-site.js'

const SECRET = 'the-secret-beside-the-assets'

let dir: string
let assets: string
let viewer: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pinfold-console-'))
  assets = join(dir, 'dist')
  await mkdir(join(assets, 'assets'), { recursive: true })
  await writeFile(join(assets, 'index.html'), '<!doctype html><title>console</title>')
  await writeFile(join(assets, 'assets', 'index-AbC123.js'), 'console.log(1)')
  await writeFile(join(assets, 'assets', 'index-AbC123.css'), 'body{}')
  await writeFile(join(assets, '.env'), SECRET)
  viewer = join(dir, 'api-reference')
  await mkdir(viewer)
  await writeFile(join(viewer, 'standalone.js'), 'window.viewer = 1')
  await writeFile(join(viewer, '.hidden'), SECRET)
  await writeFile(join(dir, 'secret.txt'), SECRET)
})

afterAll(() => rm(dir, { recursive: true, force: true }))

/** The API behind the console: says which request reached it. */
const api = async (request: Request) =>
  Response.json({ api: `${request.method} ${new URL(request.url).pathname}` }, { status: 404 })

const site = (
  options: { basePath?: string; apiHostname?: string; assetsDir?: string; apiReferenceDir?: string } = {},
) => withConsole(api, { assetsDir: assets, apiReferenceDir: viewer, ...options })

const get = (path: string, headers: Record<string, string> = {}, method = 'GET', host = 'http://localhost:3000') =>
  site()(new Request(`${host}${path}`, { method, headers }))

describe('the console at /console', () => {
  it('sends a browser asking for / to the console, and an API client a JSON map', async () => {
    const browser = await get('/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' })
    expect(browser.status).toBe(302)
    expect(browser.headers.get('location')).toBe('/console/')
    expect(browser.headers.get('vary')).toBe('Accept')

    for (const accept of ['application/json', '*/*', '']) {
      const client = await get('/', accept ? { accept } : {})
      expect(client.status).toBe(200)
      expect(client.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await client.json()).toEqual({
        service: 'pinfold',
        console: '/console/',
        docs: '/docs',
        openapi: '/openapi.json',
      })
    }
  })

  it('serves index.html uncached with a strict content security policy, and redirects /console to /console/', async () => {
    const bare = await get('/console')
    expect(bare.status).toBe(308)
    expect(bare.headers.get('location')).toBe('/console/')

    for (const path of ['/console/', '/console/index.html']) {
      const page = await get(path)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(page.headers.get('cache-control')).toBe('no-cache')
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(await page.text()).toBe('<!doctype html><title>console</title>')
    }
  })

  it('serves hashed assets with their content type, cached for a year', async () => {
    const script = await get('/console/assets/index-AbC123.js')
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(script.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await script.text()).toBe('console.log(1)')

    const style = await get('/console/assets/index-AbC123.css')
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8')

    const head = await get('/console/assets/index-AbC123.js', {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe('14')
    expect(await head.text()).toBe('')
  })

  it('answers 404 for files it does not have', async () => {
    const missing = await get('/console/assets/nope.js')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'no such file' })
    expect((await get('/console/assets')).status).toBe(404) // a directory
  })

  it('never serves a file outside the build or a hidden one', async () => {
    const attempts = [
      '/console/..%2fsecret.txt',
      '/console/..%2F..%2Fsecret.txt',
      '/console/assets/..%2f..%2fsecret.txt',
      '/console/%2e%2e%2fsecret.txt',
      '/console/..%5csecret.txt',
      '/console/assets%5c..%5c..%5csecret.txt',
      '/console/.env',
      '/console/%2eenv',
      '/console/assets//index-AbC123.js',
      '/console/index.html%00.js',
      '/console/%E0%A4%A',
    ]
    for (const path of attempts) {
      const response = await get(path)
      expect([404, 400], path).toContain(response.status)
      expect(await response.text(), path).not.toContain(SECRET)
    }
    // dot segments never reach the handler: the URL parser resolves them first, out of /console/
    const dotted = await get('/console/%2e%2e/secret.txt')
    expect(await dotted.json()).toEqual({ api: 'GET /secret.txt' })
  })

  it('hands everything else to the API', async () => {
    expect(await (await get('/v3/files/public')).json()).toEqual({ api: 'GET /v3/files/public' })
    expect(await (await get('/console/', {}, 'POST')).json()).toEqual({ api: 'POST /console/' })
    expect(await (await get('/consoles')).json()).toEqual({ api: 'GET /consoles' })
  })

  it('leaves a subdomain gateway and other hosts than the public URL to the API', async () => {
    const cid = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    const gateway = await get('/', { accept: 'text/html' }, 'GET', `http://${cid}.ipfs.localhost:3000`)
    expect(await gateway.json()).toEqual({ api: 'GET /' })
    const pinned = withConsole(api, { assetsDir: assets, apiHostname: 'files.example.com' })
    const other = await pinned(new Request('http://gateway.example.org/console/'))
    expect(await other.json()).toEqual({ api: 'GET /console/' })
    const own = await pinned(new Request('http://files.example.com/console/'))
    expect(own.status).toBe(200)
  })

  it('lives under the API mount prefix', async () => {
    const mounted = site({ basePath: '/pinfold' })
    const page = await mounted(new Request('http://localhost/pinfold/console/'))
    expect(page.status).toBe(200)
    const root = await mounted(new Request('http://localhost/pinfold/', { headers: { accept: 'text/html' } }))
    expect(root.headers.get('location')).toBe('/pinfold/console/')
    expect(await (await mounted(new Request('http://localhost/console/'))).json()).toEqual({ api: 'GET /console/' })
  })

  it('says how to build the console when it is not built', async () => {
    const unbuilt = site({ assetsDir: join(dir, 'missing') })
    const page = await unbuilt(new Request('http://localhost/console/'))
    expect(page.status).toBe(503)
    expect(((await page.json()) as { error: string }).error).toMatch(/pnpm build/)
  })
})

describe('the API reference viewer at /docs/viewer/', () => {
  it('serves the viewer script uncached but revalidated, and leaves /docs itself to the API', async () => {
    const script = await get('/docs/viewer/standalone.js')
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(script.headers.get('cache-control')).toBe('no-cache')
    expect(await script.text()).toBe('window.viewer = 1')
    const etag = script.headers.get('etag')!
    expect(etag).toMatch(/^W\/"/)

    const again = await get('/docs/viewer/standalone.js', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const changed = await get('/docs/viewer/standalone.js', { 'if-none-match': 'W/"other"' })
    expect(changed.status).toBe(200)

    expect(await (await get('/docs')).json()).toEqual({ api: 'GET /docs' })
    expect(await (await get('/docs/')).json()).toEqual({ api: 'GET /docs/' })
    expect(await (await get('/docs/viewerx')).json()).toEqual({ api: 'GET /docs/viewerx' })
  })

  it('never serves a file outside the viewer directory or a hidden one', async () => {
    for (const path of [
      '/docs/viewer/..%2fdist%2findex.html',
      '/docs/viewer/..%2F..%2Fsecret.txt',
      '/docs/viewer/%2e%2e%5csecret.txt',
      '/docs/viewer/.hidden',
      '/docs/viewer/%2ehidden',
      '/docs/viewer/',
    ]) {
      const response = await get(path)
      expect(response.status, path).toBe(404)
      expect(await response.text(), path).not.toContain(SECRET)
    }
  })

  it('lives under the mount prefix, on the API host only, and says how to build it when missing', async () => {
    const mounted = site({ basePath: '/pinfold' })
    expect((await mounted(new Request('http://localhost/pinfold/docs/viewer/standalone.js'))).status).toBe(200)
    const outside = await mounted(new Request('http://localhost/docs/viewer/standalone.js'))
    expect(await outside.json()).toEqual({ api: 'GET /docs/viewer/standalone.js' })

    const cid = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    const gateway = await get('/docs/viewer/standalone.js', {}, 'GET', `http://${cid}.ipfs.localhost:3000`)
    expect(await gateway.json()).toEqual({ api: 'GET /docs/viewer/standalone.js' })

    const unbuilt = site({ apiReferenceDir: join(dir, 'missing') })
    const missing = await unbuilt(new Request('http://localhost/docs/viewer/standalone.js'))
    expect(missing.status).toBe(503)
    expect(((await missing.json()) as { error: string }).error).toMatch(/pnpm build/)
  })

  it('is not served where no viewer directory is given', async () => {
    const bare = withConsole(api, { assetsDir: assets })
    const response = await bare(new Request('http://localhost/docs/viewer/standalone.js'))
    expect(await response.json()).toEqual({ api: 'GET /docs/viewer/standalone.js' })
  })
})
