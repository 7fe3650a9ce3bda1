import { conformanceScore, openFixtureCar } from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { type ConformanceSites, createConformanceSites } from './support/dnslink-sites.js'

/**
 * gateway-conformance `tests/dnslink_gateway_test.go`: a host whose `_dnslink` TXT record names content is served as that website. Here the host is a
 * tenant's verified custom domain, the TXT records come from the injected resolver (the suite's
 * `dnslink.yml` fixtures), and the content is the tenant's public CAR upload.
 */
const score = conformanceScore('dnslink_gateway_test.go')

let sites: ConformanceSites
beforeAll(async () => {
  sites = await createConformanceSites()
})
afterAll(() => sites.close())

const textOf = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8')

describe('TestDNSLinkGatewayUnixFSDirectoryListing', () => {
  const T = 'TestDNSLinkGatewayUnixFSDirectoryListing'
  let host: string
  beforeAll(async () => {
    await sites.gw.loadCar('dir_listing/fixtures.car')
    host = await sites.dnslink('dir_listing/dnslink.yml', 'dir-listing-website')
  })

  score.it(T, 'Redirect dir listing to URL with trailing slash', async () => {
    const res = await sites.gw.onHost(host, '/%C4%85/%C4%99')
    expect(res.status).toBe(301)
    expect(res.headers.location).toBe('/%C4%85/%C4%99/')
  })
  score.it(T, 'Backlink on root CID should be hidden (TODO: cleanup Kubo-specifics)', async () => {
    const res = await sites.gw.onHost(host, '/')
    expect(res.status).toBe(200)
    expect(textOf(res.body)).toContain('Index of')
    expect(textOf(res.body)).not.toContain('<a href="/">..</a>')
  })
  score.it(T, 'Regular dir listing (TODO: cleanup Kubo-specifics)', async () => {
    const res = await sites.gw.onHost(host, '/%C4%85/%C4%99/')
    expect(res.headers.etag).toContain('"DirIndex-')
    const body = textOf(res.body)
    expect(body).toContain('Index of')
    expect(body).toContain('<a href="/%C4%85/%C4%99/..">..</a>')
    expect(body).toContain(
      `/ipns/<a href="//${host}/">${host}</a>/<a href="//${host}/%C4%85">ą</a>/<a href="//${host}/%C4%85/%C4%99">ę</a>`,
    )
    expect(body).toContain('<a href="/%C4%85/%C4%99/file-%C5%BA%C5%82.txt">file-źł.txt</a>')
    const file = await (await openFixtureCar('dir_listing/fixtures.car')).cid('ą', 'ę', 'file-źł.txt')
    expect(body).toContain(
      `<a class="ipfs-hash" translate="no" href="https://cid.ipfs.tech/#${file}" target="_blank" rel="noreferrer noopener">`,
    )
  })
})

describe('TestDNSLinkGatewayWithSubpath', () => {
  const T = 'TestDNSLinkGatewayWithSubpath'
  let host: string
  beforeAll(async () => {
    await sites.gw.loadCar('gateway-cache/fixtures.car')
    host = await sites.dnslink('gateway-cache/dnslink.yml', 'dnslink-with-subpath')
  })

  score.it(T, 'GET for DNSLink with dnslink=/ipfs/<cid>/sub-path returns file at sub-path', async () => {
    const res = await sites.gw.onHost(host, '/root3/root4/index.html')
    expect(res.status).toBe(200)
    expect(textOf(res.body)).toBe('hello\n')
    // a DNSLink answer can change with the record: never cached as immutable
    expect(res.headers['cache-control']).toBe('public, max-age=60')
  })
})
