import { randomBytes } from 'node:crypto'
import { invalid, notFound, PinfoldError } from '../errors.js'
import type { Actor } from '../model.js'
import type { DomainRecord } from '../ports/gateway-records.js'
import type { ServiceContext } from './context.js'

/** TXT lookups: each record as its character-strings (node:dns `resolveTxt` shape). */
export type TxtResolver = (name: string) => Promise<string[][]>

export const VERIFICATION_PREFIX = '_service-verify.'

/** How long a claim may stay unverified; after that it neither routes nor blocks anyone. */
export const PENDING_DOMAIN_TTL_MS = 7 * 24 * 60 * 60 * 1000

/**
 * Names that never reach this service through public DNS, so nobody can prove owning them, while
 * a claim to one could catch requests meant for the API itself (RFC 6761, RFC 6762, RFC 8375,
 * ICANN's `.internal`).
 */
const INTERNAL_SUFFIXES = ['localhost', 'local', 'internal', 'localdomain', 'home.arpa']

/**
 * IPv6 (a colon, a bracket) or what URL parsers read as IPv4: a last label that is a decimal or
 * hex number (`127.0.0.1`, `2130706433`, `0x7f.1`). Top-level domains are never numbers.
 */
function isIpLiteral(name: string): boolean {
  return name.includes(':') || name.startsWith('[') || /^(\d+|0x[0-9a-f]*)$/.test(name.split('.').at(-1) ?? '')
}

/** A host name: lower-case labels of letters, digits and inner hyphens, at least two labels, not an IP literal, not an internal name. */
export function normaliseDomain(value: unknown): string {
  if (typeof value !== 'string') throw invalid('domain must be a string')
  const domain = value.trim().toLowerCase().replace(/\.$/, '')
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
  const labels = domain.split('.')
  if (isIpLiteral(domain)) {
    throw invalid('an IP address is not a domain: register a host name such as files.example.com')
  }
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => label.test(l))) {
    throw invalid('domain must be a host name such as files.example.com')
  }
  if (INTERNAL_SUFFIXES.some((suffix) => domain === suffix || domain.endsWith(`.${suffix}`))) {
    throw invalid(`${domain} is an internal name, not a public domain`)
  }
  return domain
}

/** Whether `domain` is one of `hosts` or a name under one of them. */
function isUnder(domain: string, hosts: readonly string[]): boolean {
  return hosts.some((host) => {
    const name = host.toLowerCase().replace(/\.$/, '')
    return name !== '' && (domain === name || domain.endsWith(`.${name}`))
  })
}

/** A store's CONFLICT, re-worded for clients: store messages may name tables or constraints. */
async function conflictAs<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if ((error as { code?: unknown }).code === 'CONFLICT') throw new PinfoldError('CONFLICT', message)
    throw error
  }
}

/**
 * Custom gateway domains. A registered domain stays `pending_ownership` until a TXT record at
 * `_service-verify.<domain>` holds the token issued with it; `verify` then makes it `active`, and
 * requests whose `Host` is that domain are served as the tenant's gateway. Any number of tenants
 * may claim one name; the first to verify owns it, and an unverified claim lapses after
 * {@link PENDING_DOMAIN_TTL_MS}.
 */
export function createDomainOperations(ctx: ServiceContext, resolver?: TxtResolver | undefined) {
  const mustGet = async (actor: Actor, id: string) => {
    const domain = await ctx.records.getDomain(actor.tenantId, id)
    if (!domain) throw notFound('domain')
    return domain
  }
  return {
    /** The resolver the service was built with (`createFileService({ resolveTxt })`), if any. */
    resolver,

    /**
     * Registers a pending claim. `reservedHosts`: the host names the deployment answers on itself
     * (the API's, the subdomain gateway's); neither they nor names under them can be claimed.
     */
    async create(actor: Actor, domain: unknown, reservedHosts: readonly string[] = []): Promise<DomainRecord> {
      const name = normaliseDomain(domain)
      if (isUnder(name, reservedHosts)) throw invalid(`${name} is this service's own host name`)
      const now = ctx.clock.now()
      return conflictAs(`${name} is already registered`, () =>
        ctx.records.createDomain({
          id: ctx.ids.recordId(),
          tenantId: actor.tenantId,
          domain: name,
          verificationToken: `pinfold-verify=${randomBytes(18).toString('base64url')}`,
          status: 'pending_ownership',
          createdAt: now,
          verifiedAt: null,
          expiresAt: new Date(now.getTime() + PENDING_DOMAIN_TTL_MS),
        }),
      )
    },
    get: mustGet,
    list: (actor: Actor) => ctx.records.listDomains(actor.tenantId),
    async remove(actor: Actor, id: string): Promise<void> {
      if (!(await ctx.records.deleteDomain(actor.tenantId, id))) throw notFound('domain')
    },

    /**
     * Looks up the TXT record; activates the domain when one of its values equals the token.
     * A failed or empty lookup leaves it `pending_ownership` (that is the answer, not an error).
     * `CONFLICT` when the claim lapsed or another tenant verified the name first; `UNAVAILABLE`
     * when the service has no resolver (nor is given one here): nothing could look the record up.
     */
    async verify(actor: Actor, id: string, resolveTxt: TxtResolver | undefined = resolver): Promise<DomainRecord> {
      // like a feature that is off: refused before any store is touched
      if (!resolveTxt) {
        throw new PinfoldError(
          'UNAVAILABLE',
          'domain verification is unavailable: no DNS TXT resolver configured (createFileService option `resolveTxt`)',
        )
      }
      const domain = await mustGet(actor, id)
      if (domain.status === 'active') return domain
      const now = ctx.clock.now()
      if (domain.expiresAt && domain.expiresAt.getTime() <= now.getTime()) {
        throw new PinfoldError('CONFLICT', 'this claim lapsed unverified: register the domain again')
      }
      let records: string[][] = []
      try {
        records = await resolveTxt(`${VERIFICATION_PREFIX}${domain.domain}`)
      } catch {
        records = []
      }
      if (!records.some((chunks) => chunks.join('') === domain.verificationToken)) return domain
      const activated = await conflictAs(`${domain.domain} was verified by another account`, () =>
        ctx.records.activateDomain(actor.tenantId, id, now),
      )
      return activated ?? domain
    },

    /**
     * Who serves `host` (a host name, port ignored): the tenant of its active claim, or `pending`
     * while only unverified claims exist. IP literals are never domains.
     */
    async route(host: string): Promise<{ tenantId: string; status: DomainRecord['status'] } | undefined> {
      const name = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')
      if (!name || isIpLiteral(name)) return undefined
      const domain = await ctx.records.findDomain(name, ctx.clock.now())
      return domain && { tenantId: domain.tenantId, status: domain.status }
    },
  }
}
