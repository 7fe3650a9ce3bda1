import {
  type ConformanceGateway,
  conformanceScore,
  type FixtureCar,
  CONFORMANCE_SUBDOMAIN_HOST as HOST,
  openFixtureCar,
  startConformanceGateway,
} from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect } from 'vitest'

/**
 * gateway-conformance `tests/subdomain_gateway_ipfs_test.go`: `example.com` is the subdomain
 * gateway's host (`subdomainHost`), so `/ipfs/{cid}` there redirects to `{cidv1}.ipfs.example.com`;
 * any other host is a plain path gateway. The `X-Forwarded-*` sub-tests go through the node bridge
 * trusting one proxy, as a deployment behind nginx does (in process, the URL is the request's host).
 */
const score = conformanceScore('subdomain_gateway_ipfs_test.go')

let gw: ConformanceGateway
let listing: FixtureCar
let sub: FixtureCar
let percent: FixtureCar
beforeAll(async () => {
  gw = await startConformanceGateway()
  for (const path of [
    'dir_listing/fixtures.car',
    'subdomain_gateway/fixtures.car',
    'path_gateway_unixfs/dir-with-percent-encoded-filename.car',
  ]) {
    await gw.loadCar(path)
  }
  listing = await openFixtureCar('dir_listing/fixtures.car')
  sub = await openFixtureCar('subdomain_gateway/fixtures.car')
  percent = await openFixtureCar('path_gateway_unixfs/dir-with-percent-encoded-filename.car')
})
afterAll(() => gw.close())

const utf8 = (body: string) => Buffer.from(body, 'latin1').toString('utf8')

describe('TestUnixFSDirectoryListingOnSubdomainGateway', () => {
  const T = 'TestUnixFSDirectoryListingOnSubdomainGateway'
  const onRoot = (path: string) => gw.onHost(`${listing.root.toV1()}.ipfs.${HOST}`, path)

  score.it(T, 'backlink on root CID should be hidden (TODO: cleanup Kubo-specifics)', async () => {
    const html = utf8((await onRoot('/')).body)
    expect(html).toContain('Index of')
    expect(html).not.toContain('<a href="/">..</a>')
  })
  score.it(T, 'redirect dir listing to URL with trailing slash', async () => {
    const res = await onRoot('/%C4%85/%C4%99')
    expect(res.status).toBe(301)
    expect(res.headers.location).toBe('/%C4%85/%C4%99/')
  })
  score.it(T, 'Regular dir listing HTML (TODO: cleanup Kubo-specifics)', async () => {
    const root = listing.root
    const file = await listing.cid('ą', 'ę', 'file-źł.txt')
    const res = await onRoot('/%C4%85/%C4%99/')
    expect(res.headers.etag).toContain('"DirIndex-')
    const html = utf8(res.body)
    expect(html).toContain('Index of')
    expect(html).toContain('<a href="/%C4%85/%C4%99/..">..</a>')
    expect(html).toContain(
      `/ipfs/<a href="//${HOST}/ipfs/${root}">${root}</a>/<a href="//${HOST}/ipfs/${root}/%C4%85">ą</a>/<a href="//${HOST}/ipfs/${root}/%C4%85/%C4%99">ę</a>`,
    )
    expect(html).toContain('<a href="/%C4%85/%C4%99/file-%C5%BA%C5%82.txt">file-źł.txt</a>')
    expect(html).toContain(
      `<a class="ipfs-hash" translate="no" href="//${HOST}/ipfs/${file}?filename=file-%25C5%25BA%25C5%2582.txt">`,
    )
  })
})

describe('TestGatewaySubdomains', () => {
  const T = 'TestGatewaySubdomains'
  const cids = async () => ({
    dir: await sub.cid('testdirlisting'),
    v1: await sub.cid('hello-CIDv1'),
    v0: await sub.cid('hello-CIDv0'),
    v0to1: await sub.cid('hello-CIDv0to1'),
    tooLong: await sub.cid('hello-CIDv1_TOO_LONG'),
  })
  const hello = async () => Buffer.from(await sub.rawData('hello-CIDv1')).toString('latin1')
  const WIKIPEDIA = 'QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco'

  score.it(T, 'request for example.com/ipfs/{cid} redirects to {cid}.ipfs.example.com', async () => {
    const { v1 } = await cids()
    const res = await gw.onHost(HOST, `/ipfs/${v1}/`)
    expect(res.status).toBe(301)
    expect(res.headers.location).toContain(`http://${v1}.ipfs.${HOST}/`)
  })
  score.it(
    T,
    'request for example.com/ipfs/{CIDv1}/{filename with percent encoding} redirects to subdomain',
    async () => {
      const res = await gw.onHost(HOST, `/ipfs/${percent.root}/Portugal%252C+España=Peninsula%20Ibérica.txt`)
      expect(res.status).toBe(301)
      expect(res.headers.location).toBe(
        `http://${percent.root}.ipfs.${HOST}/Portugal%252C+Espa%C3%B1a=Peninsula%20Ib%C3%A9rica.txt`,
      )
    },
  )
  score.it(T, 'request for example.com/ipfs/{DirCID}/ redirects to subdomain', async () => {
    const { dir } = await cids()
    const res = await gw.onHost(HOST, `/ipfs/${dir}/`)
    expect(res.status).toBe(301)
    expect(res.headers.location).toContain(`http://${dir}.ipfs.${HOST}/`)
  })
  score.it(T, 'request for example.com/ipfs/{CIDv0} redirects to {CIDv1}.ipfs.example.com', async () => {
    const { v0, v0to1 } = await cids()
    const res = await gw.onHost(HOST, `/ipfs/${v0}/`)
    expect(res.status).toBe(301)
    expect(res.headers.location).toContain(`http://${v0to1}.ipfs.${HOST}/`)
  })
  score.it(T, 'request for {CID}.ipfs.example.com should return expected payload', async () => {
    const { v1 } = await cids()
    const res = await gw.onHost(`${v1}.ipfs.${HOST}`, '/')
    expect(res.status).toBe(200)
    expect(res.body).toContain(await hello())
  })
  score.it(T, 'request for {CID}.ipfs.example.com/ipfs/{CID} should return HTTP 404', async () => {
    const { v1 } = await cids()
    expect((await gw.onHost(`${v1}.ipfs.${HOST}`, `/ipfs/${v1}/`)).status).toBe(404)
  })
  score.it(
    T,
    'request for {CID}.ipfs.example.com/ipfs/file.txt should return data from a file in CID content root',
    async () => {
      const { dir } = await cids()
      const res = await gw.onHost(`${dir}.ipfs.${HOST}`, '/ipfs/file.txt')
      expect(res.status).toBe(200)
      expect(res.body).toContain('I am a txt file')
    },
  )
  score.it(T, 'valid file and subdirectory paths in directory listing at {cid}.ipfs.example.com', async () => {
    const { dir } = await cids()
    const res = await gw.onHost(`${dir}.ipfs.${HOST}`, '/')
    expect(res.status).toBe(200)
    expect(res.body).toContain('<a href="/hello">hello</a>')
    expect(res.body).toContain('<a href="/ipfs">ipfs</a>')
  })
  score.it(T, 'valid parent directory path in directory listing at {cid}.ipfs.example.com/sub/dir', async () => {
    const { dir } = await cids()
    const res = await gw.onHost(`${dir}.ipfs.${HOST}`, '/ipfs/ipns/')
    expect(res.status).toBe(200)
    expect(res.body).toContain('<a href="/ipfs/ipns/..">..</a>')
    expect(res.body).toContain('<a href="/ipfs/ipns/bar">bar</a>')
  })
  score.it(T, 'request for deep path resource at {cid}.ipfs.example.com/sub/dir/file', async () => {
    const { dir } = await cids()
    const res = await gw.onHost(`${dir}.ipfs.${HOST}`, '/ipfs/ipns/bar')
    expect(res.status).toBe(200)
    expect(res.body).toContain('text-file-content')
  })
  score.it(
    T,
    'valid breadcrumb links in the header of directory listing at {cid}.ipfs.example.com/sub/dir (TODO: cleanup Kubo-specifics)',
    async () => {
      const { dir } = await cids()
      const res = await gw.onHost(`${dir}.ipfs.${HOST}`, '/ipfs/ipns/')
      expect(res.status).toBe(200)
      expect(res.body).toContain('Index of')
      expect(res.body).toContain(
        `/ipfs/<a href="//${HOST}/ipfs/${dir}">${dir}</a>/<a href="//${HOST}/ipfs/${dir}/ipfs">ipfs</a>/<a href="//${HOST}/ipfs/${dir}/ipfs/ipns">ipns</a>`,
      )
    },
  )
  score.differs(
    T,
    'request for example.com/ipfs/{InvalidCID} produces useful error before redirect',
    'the suite reads the text/plain body Kubo sends; Pinfold answers API clients (no Accept) with its JSON error, where the same words have their quotes escaped, and browsers with an HTML page that carries them as written',
    async () => {
      const res = await gw.onHost(HOST, '/ipfs/QmInvalidCID')
      expect(res.status).toBe(400)
      expect(JSON.parse(res.body).error).toContain('invalid path "/ipfs/QmInvalidCID"')
      const page = await gw.onHost(HOST, '/ipfs/QmInvalidCID', { headers: { accept: 'text/html' } })
      expect(page.status).toBe(400)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.body).toContain('invalid path "/ipfs/QmInvalidCID"')
    },
  )
  for (const proto of ['https', 'http']) {
    score.it(
      T,
      `request for example.com/ipfs/{CID} with X-Forwarded-Proto: ${proto} produces redirect to ${proto.toUpperCase()} URL`,
      async () => {
        const { v1 } = await cids()
        const res = await gw.behindProxy(HOST, `/ipfs/${v1}/`, { 'x-forwarded-proto': proto })
        expect(res.status).toBe(301)
        expect(res.headers.location).toBe(`${proto}://${v1}.ipfs.${HOST}/`)
      },
    )
  }
  score.it(
    T,
    'request for example.com/ipfs/?uri=ipfs%3A%2F%2F.. produces redirect to /ipfs/.. content path',
    async () => {
      const uri = encodeURIComponent(`ipfs://${WIKIPEDIA}/wiki/Diego_Maradona.html`)
      const res = await gw.onHost(HOST, `/ipfs/?uri=${uri}`)
      expect(res.status).toBe(301)
      expect(res.headers.location).toBe(`/ipfs/${WIKIPEDIA}/wiki/Diego_Maradona.html`)
    },
  )
  score.it(T, 'request for a too long CID at example.com/ipfs/{CIDv1} returns human readable error', async () => {
    const { tooLong } = await cids()
    const res = await gw.onHost(HOST, `/ipfs/${tooLong}/`)
    expect(res.status).toBe(400)
    expect(res.body).toContain('CID incompatible with DNS label length limit of 63')
  })
  score.it(T, 'request for a too long CID at {CIDv1}.ipfs.example.com returns expected payload', async () => {
    const { tooLong } = await cids()
    const res = await gw.onHost(`${tooLong}.ipfs.${HOST}`, '/')
    expect(res.status).toBe(400)
    expect(res.body).toContain('CID incompatible with DNS label length limit of 63')
  })
  score.it(T, "request for fake.domain.com/ipfs/{CID} doesn't match the example.com gateway", async () => {
    const { v1 } = await cids()
    expect((await gw.behindProxy('fake.domain.com', `/ipfs/${v1}`)).status).toBe(200)
  })
  score.it(
    T,
    'request for fake.domain.com/ipfs/{CID} with X-Forwarded-Host: example.com match the example.com gateway',
    async () => {
      const { v1 } = await cids()
      const res = await gw.behindProxy('fake.domain.com', `/ipfs/${v1}`, { 'x-forwarded-host': HOST })
      expect(res.status).toBe(301)
      expect(res.headers.location).toBe(`http://${v1}.ipfs.${HOST}/`)
    },
  )
  for (const proto of ['https', 'http']) {
    score.it(
      T,
      `request for fake.domain.com/ipfs/{CID} with X-Forwarded-Host: example.com and X-Forwarded-Proto: ${proto} match the example.com gateway, redirect with ${proto}`,
      async () => {
        const { v1 } = await cids()
        const res = await gw.behindProxy('fake.domain.com', `/ipfs/${v1}`, {
          'x-forwarded-host': HOST,
          'x-forwarded-proto': proto,
        })
        expect(res.status).toBe(301)
        expect(res.headers.location).toBe(`${proto}://${v1}.ipfs.${HOST}/`)
      },
    )
  }
})
