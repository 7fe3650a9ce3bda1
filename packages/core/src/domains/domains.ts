import { randomBytes } from 'node:crypto'
import type { DomainRecord, TxtResolver } from '@pinfold/interface'
import { invalid, notFound, PinfoldError } from '@pinfold/interface'
import { tenantEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import type { DomainOperations } from './api.js'

/** What the domain operations use of the service, and the domain options of `createFileService`. */
export interface DomainSettings extends Pick<ServiceContext, 'records' | 'ids' | 'clock'> {
  /** Where verification looks TXT records up; without one, `verify` is `UNAVAILABLE`. */
  resolveTxt?: TxtResolver | undefined
  /** The domain dedicated gateways live under, lower-cased. */
  gatewayDomain?: string | undefined
}

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
 *
 * Dedicated gateways are the same records: `{name}.{gatewayDomain}` is claimed `active` at once
 * (the deployment owns `gatewayDomain` and its wildcard DNS), so routing, swaps and removal are
 * the custom domains' own.
 */
export function createDomainOperations(ctx: DomainSettings): DomainOperations {
  const { resolveTxt: resolver, gatewayDomain } = ctx
  const claim = (tenantId: string, domain: string, now: Date): DomainRecord => ({
    id: ctx.ids.recordId(),
    tenantId,
    domain,
    verificationToken: '',
    status: 'pending_ownership',
    createdAt: now,
    verifiedAt: null,
    expiresAt: null,
  })
  const mustGet: DomainOperations['get'] = async (actor, id, options) => {
    const domain = await ctx.records.gateway.getDomain(actor.tenantId, id, options)
    if (!domain) throw notFound('domain')
    return domain
  }
  return {
    gatewayDomain,

    async create(actor, domain, reservedHosts = [], options) {
      const name = normaliseDomain(domain)
      const now = ctx.clock.now()
      const dedicated = gatewayDomain !== undefined && isUnder(name, [gatewayDomain])
      if (dedicated && name.split('.').length !== gatewayDomain.split('.').length + 1) {
        throw invalid(`a dedicated gateway is {name}.${gatewayDomain}: one label, without dots`)
      }
      // routing is by exact name, so a dedicated name only has to differ from the API's own
      // (the gateway domain itself may well lie under the API's: gw.example.com, example.com)
      const reserved = dedicated
        ? reservedHosts.some((host) => host.toLowerCase() === name)
        : isUnder(name, reservedHosts)
      if (reserved) throw invalid(`${name} is this service's own host name`)
      const record: DomainRecord = dedicated
        ? // the deployment owns the gateway domain, so the first claim is proof enough
          { ...claim(actor.tenantId, name, now), verificationToken: '', status: 'active', verifiedAt: now }
        : {
            ...claim(actor.tenantId, name, now),
            verificationToken: `pinfold-verify=${randomBytes(18).toString('base64url')}`,
            expiresAt: new Date(now.getTime() + PENDING_DOMAIN_TTL_MS),
          }
      const event = tenantEvent(actor, {
        type: 'domain.created',
        target: { kind: 'domain', id: record.id },
        data: { domain: name, status: record.status },
      })
      return conflictAs(`${name} is already registered`, () =>
        ctx.records.gateway.createDomain(record, { ...options, events: [event] }),
      )
    },
    get: mustGet,
    list: (actor, options) => ctx.records.gateway.listDomains(actor.tenantId, options),
    async remove(actor, id, options) {
      const event = tenantEvent(actor, { type: 'domain.deleted', target: { kind: 'domain', id } })
      if (!(await ctx.records.gateway.deleteDomain(actor.tenantId, id, { ...options, events: [event] }))) {
        throw notFound('domain')
      }
    },

    async verify(actor, id, options) {
      // like a feature that is off: refused before any store is touched
      if (!resolver) {
        throw new PinfoldError(
          'UNAVAILABLE',
          'domain verification is unavailable: no DNS TXT resolver configured (createFileService option `resolveTxt`)',
        )
      }
      const resolveTxt = resolver
      const domain = await mustGet(actor, id, options)
      if (domain.status === 'active') return domain
      const now = ctx.clock.now()
      if (domain.expiresAt && domain.expiresAt.getTime() <= now.getTime()) {
        throw new PinfoldError('CONFLICT', 'this claim lapsed unverified: register the domain again')
      }
      let records: string[][] = []
      try {
        records = await resolveTxt(`${VERIFICATION_PREFIX}${domain.domain}`, { signal: options?.signal })
      } catch {
        records = []
      }
      if (!records.some((chunks) => chunks.join('') === domain.verificationToken)) return domain
      const activated = await conflictAs(`${domain.domain} was verified by another account`, () =>
        ctx.records.gateway.activateDomain(actor.tenantId, id, now, {
          ...options,
          events: [
            tenantEvent(actor, {
              type: 'domain.verified',
              target: { kind: 'domain', id },
              data: { domain: domain.domain },
            }),
          ],
        }),
      )
      return activated ?? domain
    },

    async route(host, options) {
      const name = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')
      if (!name || isIpLiteral(name)) return undefined
      const domain = await ctx.records.gateway.findDomain(name, ctx.clock.now(), options)
      return domain && { tenantId: domain.tenantId, status: domain.status }
    },
  }
}
