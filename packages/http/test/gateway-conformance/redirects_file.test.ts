import {
  CONFORMANCE_SUBDOMAIN_HOST,
  conformanceScore,
  type FixtureCar,
  openFixtureCar,
} from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { type ConformanceSites, createConformanceSites } from './support/dnslink-sites.js'

/**
 * gateway-conformance `tests/redirects_file_test.go`: a website's `_redirects` file (IPIP-002) on
 * the subdomain gateway and on DNSLink hosts (here: a tenant's verified custom domain whose
 * `_dnslink` TXT record the injected resolver answers).
 */
const score = conformanceScore('redirects_file_test.go')

let sites: ConformanceSites
let fixture: FixtureCar
let spa: FixtureCar
beforeAll(async () => {
  sites = await createConformanceSites()
  await sites.gw.loadCar('redirects_file/redirects.car')
  await sites.gw.loadCar('redirects_file/redirects-spa.car')
  fixture = await openFixtureCar('redirects_file/redirects.car')
  spa = await openFixtureCar('redirects_file/redirects-spa.car')
})
afterAll(() => sites.close())

/** `{cid}.ipfs.{subdomain host}` for the fixture's directory `name` (the suite's `DNSSafeCidV1`). */
const subdomainOf = async (car: FixtureCar, ...names: string[]) =>
  `${(await car.cid(...names)).toV1().toString()}.ipfs.${CONFORMANCE_SUBDOMAIN_HOST}`

const textOf = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8')

describe('TestRedirectsFileSupport', () => {
  const T = 'TestRedirectsFileSupport'
  const on = async (dir: string, path: string) => sites.gw.onHost(await subdomainOf(fixture, dir), path)
  const redirects = (name: string, path: string, status: number, location: string) =>
    score.it(T, name, async () => {
      const res = await on('examples', path)
      expect(res.status).toBe(status)
      expect(res.headers.location).toBe(location)
    })

  redirects(
    'request for {cid}.ipfs.example.com/redirect-one redirects with default of 301, per _redirects file',
    '/redirect-one',
    301,
    '/one.html',
  )
  redirects(
    'request for {cid}.ipfs.example.com/301-redirect-one redirects with 301, per _redirects file',
    '/301-redirect-one',
    301,
    '/one.html',
  )
  redirects(
    'request for {cid}.ipfs.example.com/302-redirect-two redirects with 302, per _redirects file',
    '/302-redirect-two',
    302,
    '/two.html',
  )
  score.it(T, 'request for {cid}.ipfs.example.com/200-index returns 200, per _redirects file', async () => {
    const res = await on('examples', '/200-index')
    expect(res.status).toBe(200)
    expect(textOf(res.body)).toContain('my index')
  })
  redirects(
    'request for {cid}.ipfs.example.com/posts/:year/:month/:day/:title redirects with 301 and placeholders, per _redirects file',
    '/posts/2022/01/01/hello-world',
    301,
    '/articles/2022/01/01/hello-world',
  )
  redirects(
    'request for {cid}.ipfs.example.com/splat/one.html redirects with 301 and splat placeholder, per _redirects file',
    '/splat/one.html',
    301,
    '/redirected-splat/one.html',
  )
  for (const [status, prefix] of [
    [404, 'not-found'],
    [410, 'gone'],
    [451, 'unavail'],
  ] as const) {
    score.it(
      T,
      `request for {cid}.ipfs.example.com/${prefix}/has-no-redirects-entry returns custom ${status}, per _redirects file`,
      async () => {
        const res = await on('examples', `/${prefix}/has-no-redirects-entry`)
        expect(res.status).toBe(status)
        expect(res.headers['cache-control']).toBe('public, max-age=29030400, immutable')
        const page = await fixture.cid('examples', `${status}.html`)
        expect(res.headers.etag).toBe(`"${page}"`)
        expect(textOf(res.body)).toContain(`my ${status}`)
      },
    )
  }
  score.it(T, 'request for {cid}.ipfs.example.com/catch-all returns 200, per _redirects file', async () => {
    const res = await on('examples', '/catch-all')
    expect(res.status).toBe(200)
    expect(textOf(res.body)).toContain('my index')
  })
  score.it(
    T,
    'invalid file: request for $INVALID_REDIRECTS_DIR_HOSTNAME/not-found returns error about invalid redirects file',
    async () => {
      const res = await on('forced', '/not-found')
      expect(res.status).toBe(500)
      expect(res.body).toContain('could not parse _redirects:')
      expect(res.body).toContain('301!')
    },
  )
  score.it(
    T,
    'invalid file: request for $TOO_LARGE_REDIRECTS_DIR_HOSTNAME/not-found returns error about too large redirects file',
    async () => {
      const res = await on('too-large', '/not-found')
      expect(res.status).toBe(500)
      expect(res.body).toContain('could not parse _redirects:')
      expect(res.body).toContain('redirects file size cannot exceed')
    },
  )
  score.it(
    T,
    'newline: request for $NEWLINE_REDIRECTS_DIR_HOSTNAME/redirect-one redirects with default of 301, per _redirects file',
    async () => {
      const res = await on('newlines', '/redirect-one')
      expect(res.status).toBe(301)
      expect(res.headers.location).toBe('/one.html')
    },
  )
  score.it(
    T,
    'good codes: request for $GOOD_REDIRECTS_DIR_HOSTNAME/redirect-one redirects with default of 301, per _redirects file',
    async () => {
      const res = await on('good-codes', '/a301')
      expect(res.status).toBe(301)
      expect(res.headers.location).toBe('/b301')
    },
  )
  score.it(
    T,
    "bad codes: request for $BAD_REDIRECTS_DIR_HOSTNAME/found.html doesn't return error about bad code",
    async () => {
      const res = await on('bad-codes', '/found.html')
      expect(res.status).toBe(200)
      expect(textOf(res.body)).toContain('my found')
      expect(res.body).not.toContain('unsupported redirect status')
    },
  )
})

describe('TestRedirectsFileSupportWithDNSLink', () => {
  const T = 'TestRedirectsFileSupportWithDNSLink'
  let host: string
  beforeAll(async () => {
    host = await sites.dnslink('redirects_file/dnslink.yml', 'redirects-examples')
  })

  score.it(T, 'request for //{dnslink} redirects with default of 301, per _redirects file', async () => {
    const res = await sites.gw.onHost(host, '/redirect-one')
    expect(res.status).toBe(301)
    expect(res.headers.location).toBe('/one.html')
  })
  score.it(T, 'request for //{dnslink}/en/has-no-redirects-entry returns custom 404, per _redirects file', async () => {
    // over real HTTP through the node bridge, which writes the Date header
    const res = await sites.gw.behindProxy(host, '/not-found/has-no-redirects-entry')
    expect(res.status).toBe(404)
    expect(res.headers.etag).toBe('"Qmd9GD7Bauh6N2ZLfNnYS3b7QVAijbud83b8GE8LPMNBBP"')
    expect(res.headers['cache-control']).not.toContain('immutable')
    expect(res.headers.date).toBeTruthy()
    expect(textOf(res.body)).toContain('my 404')
  })
})

describe('TestRedirectsFileWithIfNoneMatchHeader', () => {
  const T = 'TestRedirectsFileWithIfNoneMatchHeader'
  const html = { accept: 'text/html' }
  const roundTrip = (name: string, host: () => Promise<string>) => {
    let etag: string | undefined
    score.it(T, `request for //${name}/missing-page returns body of index.html as per _redirects`, async () => {
      const res = await sites.gw.onHost(await host(), '/missing-page', { headers: html })
      expect(res.status).toBe(200)
      etag = res.headers.etag
      expect(etag).toBeTruthy()
      expect(Buffer.from(res.body, 'latin1')).toEqual(Buffer.from(await spa.rawData('index.html')))
    })
    score.it(T, `request for //${name}/missing-page with If-None-Match returns 304`, async () => {
      const res = await sites.gw.onHost(await host(), '/missing-page', {
        headers: { ...html, 'if-none-match': etag ?? '' },
      })
      expect(res.status).toBe(304)
    })
  }
  roundTrip('{cid}.ipfs.{subdomain-gateway}', () => subdomainOf(spa))
  roundTrip('{dnslink}', () => sites.dnslink('redirects_file/dnslink.yml', 'redirects-spa'))
  for (const title of [
    'request for //{dnslink}.ipns.{subdomain-gateway}/missing-page returns body of index.html as per _redirects',
    'request for //{dnslink}.ipns.{subdomain-gateway}/missing-page with If-None-Match returns 304',
  ]) {
    score.differs(
      T,
      title,
      'Pinfold has no /ipns namespace: DNSLink sites are served on their own (verified) domain, not as {dnslink}.ipns.{gateway}',
      async () => {
        const res = await sites.gw.onHost(
          `dnslink--enabled--with--spa-example-org.ipns.${CONFORMANCE_SUBDOMAIN_HOST}`,
          '/missing-page',
          {
            headers: html,
          },
        )
        expect(res.status).toBeGreaterThanOrEqual(400)
      },
    )
  }
})
