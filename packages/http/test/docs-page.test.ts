import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterEach, describe, expect, it } from 'vitest'

/**
 * The `/docs` page as an embedder of the fetch handler gets it: a shell for the OpenAPI viewer
 * whose script the host serves (`docsScriptUrl`), or without one a page pointing to the document.
 * The viewer itself is driven in a browser by server/test/console/docs-e2e.test.ts.
 */

const CDN_SCRIPT = 'https://cdn.example.com/scalar/standalone.js'

const attribute = (html: string, name: string) => {
  const value = new RegExp(`${name}="([^"]*)"`).exec(html)?.[1]
  return value
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

describe('/docs', () => {
  let api: TestApi | undefined
  afterEach(async () => {
    await api?.close()
    api = undefined
  })

  it('loads the viewer script it is given and names the document and the script relatively', async () => {
    api = await startTestApi({ docsScriptUrl: 'docs/viewer/standalone.js', basePath: '/pinfold' })
    const res = await api.fetch(`${api.url}/pinfold/docs`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const html = await res.text()
    expect(html).toContain('<script src="docs/viewer/standalone.js"></script>')
    // the configuration travels in attributes of a data block: no inline script runs
    expect(html).toMatch(
      /<script id="api-reference" type="application\/json" data-url="openapi.json" data-configuration="[^"]+"><\/script>/,
    )
    const configuration = JSON.parse(attribute(html, 'data-configuration')!)
    expect(configuration).toMatchObject({
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      hideClientButton: true,
      authentication: { preferredSecurityScheme: 'bearer' },
    })
    expect(configuration).not.toHaveProperty('proxyUrl')
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/) // no inline script body
  })

  it('lets the page run its own origin only, and talk to the API it documents', async () => {
    api = await startTestApi({
      docsScriptUrl: 'docs/viewer/standalone.js',
      publicUrl: 'https://files.example.com/pinfold',
    })
    const policy = (await api.fetch(`${api.url}/docs`)).headers.get('content-security-policy')!
    const directives = Object.fromEntries(
      policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    )
    expect(directives).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'connect-src': "'self' https://files.example.com",
      'img-src': "'self' data: blob:",
      'font-src': "'self' data:",
      'frame-ancestors': "'none'",
    })
  })

  it('allows an absolute script URL by its origin alone', async () => {
    api = await startTestApi({ docsScriptUrl: CDN_SCRIPT })
    const res = await api.fetch(`${api.url}/docs`)
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self' https://cdn.example.com;")
    expect(await res.text()).toContain(`<script src="${CDN_SCRIPT}"></script>`)
  })

  it('without a viewer, points to the OpenAPI document and says how to add one', async () => {
    api = await startTestApi()
    const res = await api.fetch(`${api.url}/docs`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<a href="openapi.json"')
    expect(html).toContain('docsScriptUrl')
    expect(html).toContain('@scalar/api-reference')
    expect(html).not.toContain('<script')
  })

  it('refuses a script URL that is not one at construction', async () => {
    for (const docsScriptUrl of ['', 'x" onload="alert(1)', 'a b.js']) {
      await expect(startTestApi({ docsScriptUrl }), docsScriptUrl).rejects.toThrow(/docsScriptUrl\W+ must be a URL/)
    }
  })
})
