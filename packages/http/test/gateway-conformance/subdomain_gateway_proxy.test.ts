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
 * gateway-conformance `tests/subdomain_gateway_proxy_test.go`: the gateway used as an HTTP proxy,
 * a client sending absolute-form requests (`GET http://{cid}.ipfs.example.com/ HTTP/1.1`, Host
 * the target's) over a real socket to the node bridge, which routes on the Host it checked.
 */
const score = conformanceScore('subdomain_gateway_proxy_test.go')

let gw: ConformanceGateway
let sub: FixtureCar
beforeAll(async () => {
  gw = await startConformanceGateway()
  await gw.loadCar('subdomain_gateway/fixtures.car')
  sub = await openFixtureCar('subdomain_gateway/fixtures.car')
})
afterAll(() => gw.close())

/** An absolute-form request, as a client configured with this gateway as its HTTP proxy sends it. */
const viaProxy = (target: string) => gw.behindProxy(new URL(target).host, target)

describe('TestProxyGatewaySubdomains', () => {
  const T = 'TestProxyGatewaySubdomains'
  score.it(T, 'request for {CID}.ipfs.example.com should return expected payload', async () => {
    const res = await viaProxy(`http://${await sub.cid('hello-CIDv1')}.ipfs.${HOST}`)
    expect(res.status).toBe(200)
    expect(res.body).toContain(Buffer.from(await sub.rawData('hello-CIDv1')).toString('latin1'))
  })
  score.it(T, 'request for example.com/ipfs/{CIDv0} redirects to {CIDv1}.ipfs.example.com', async () => {
    const res = await viaProxy(`http://${HOST}/ipfs/${await sub.cid('hello-CIDv0')}/`)
    expect(res.status).toBe(301)
    expect(res.headers.location).toContain(`http://${await sub.cid('hello-CIDv0to1')}.ipfs.${HOST}/`)
  })
  score.it(
    T,
    'request for {CID}.ipfs.example.com/ipfs/file.txt should return data from a file in CID content root',
    async () => {
      const res = await viaProxy(`http://${await sub.cid('testdirlisting')}.ipfs.${HOST}/ipfs/file.txt`)
      expect(res.status).toBe(200)
      expect(res.body).toContain('I am a txt file')
    },
  )
})
