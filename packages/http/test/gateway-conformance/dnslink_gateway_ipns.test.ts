import { conformanceScore } from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { type ConformanceSites, createConformanceSites } from './support/dnslink-sites.js'

/**
 * gateway-conformance `tests/dnslink_gateway_ipns_test.go`: DNSLink records naming IPNS keys.
 * Pinfold answers them otherwise, on purpose: it follows `dnslink=/ipfs/` records only.
 */
const score = conformanceScore('dnslink_gateway_ipns_test.go')

let sites: ConformanceSites
beforeAll(async () => {
  sites = await createConformanceSites()
})
afterAll(() => sites.close())

describe('TestDNSLinkGatewayIPNS', () => {
  const T = 'TestDNSLinkGatewayIPNS'
  for (const title of [
    'GET for DNSLink with dnslink=/ipns/{peer-id} returns expected payload',
    'GET for DNSLink with dnslink=/ipns/{cidv1-libp2p-key} returns expected payload',
  ]) {
    score.differs(
      T,
      title,
      'Pinfold publishes no IPNS names and follows only dnslink=/ipfs/ records (a /ipns/ value would have a request resolve names a client chose)',
      async () => {
        const host = await sites.site(
          'dnslink-ipns.example.org',
          'dnslink=/ipns/k51qzi5uqu5dlxdsdu5fpuu7h69wu4ohp32iwm9pdt9nq3y5rpn3ln9j12zfhe',
        )
        const res = await sites.gw.onHost(host, '/')
        expect(res.status).toBe(404)
      },
    )
  }
})
