import { readFile } from 'node:fs/promises'
import {
  CONFORMANCE_FIXTURES,
  type ConformanceGateway,
  startConformanceGateway,
} from '@pinfold/testing/gateway-conformance'
import { parse } from 'yaml'

/**
 * The conformance gateway with DNSLink: `dnslink(yml, key)` takes an entry of one of the suite's
 * `dnslink.yml` fixtures, makes its domain a verified custom domain of the tenant that loads the
 * fixtures (through the domains API, with the TXT token the injected resolver answers) and
 * publishes its `_dnslink` TXT record there; it answers the host to send requests to.
 */
export interface ConformanceSites {
  gw: ConformanceGateway
  dnslink(yml: string, key: string): Promise<string>
  /** Makes `domain` a verified domain of the tenant whose `_dnslink` TXT record is `record`. */
  site(domain: string, record: string): Promise<string>
  /** TXT lookups the gateway made, in order. */
  lookups: string[]
  close(): Promise<void>
}

export async function createConformanceSites(): Promise<ConformanceSites> {
  const txt = new Map<string, string[][]>()
  const lookups: string[] = []
  const gw = await startConformanceGateway({
    // the API's own host is known, so other hosts can be tenants' domains
    publicHost: true,
    resolveTxt: async (name) => {
      lookups.push(name)
      const records = txt.get(name)
      if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
      return records
    },
  })
  const verified = new Set<string>()
  async function site(domain: string, record: string): Promise<string> {
    if (!verified.has(domain)) {
      const created = await gw.api('/v3/gateways/domains', { method: 'POST', body: JSON.stringify({ domain }) })
      const claim = (await created.json()) as { data: { id: string; verification: { name: string; value: string } } }
      if (created.status !== 201) throw new Error(`claiming ${domain}: ${created.status}`)
      txt.set(claim.data.verification.name, [[claim.data.verification.value]])
      const verify = await gw.api(`/v3/gateways/domains/${claim.data.id}/verify`, { method: 'POST' })
      if (((await verify.json()) as { data: { status: string } }).data.status !== 'active') {
        throw new Error(`${domain} did not verify`)
      }
      verified.add(domain)
    }
    txt.set(`_dnslink.${domain}`, [[record]])
    return domain
  }
  return {
    gw,
    lookups,
    site,
    close: () => gw.close(),
    async dnslink(yml, key) {
      const fixture = parse(await readFile(`${CONFORMANCE_FIXTURES}${yml}`, 'utf8')) as {
        dnslinks: Record<string, { domain: string; path: string }>
      }
      const entry = fixture.dnslinks[key]
      if (!entry) throw new Error(`${yml} has no dnslink ${key}`)
      return site(entry.domain, `dnslink=${entry.path}`)
    },
  }
}
